// Asks the real pi what a session file means, without ever writing to it.
//
// Why this exists: pi's SessionManager.open() rewrites files it migrates or finds corrupt, so the
// conformance tests instead replay what SessionManager does on open using pi's own exported pure
// functions (loadEntriesFromFile -> migrateSessionEntries -> buildSessionContext).
//
// Request:  {"file": PATH, "leaf"?: ID|null, "entries"?: true, "tree"?: true, "llm"?: true}
//   "leaf" absent = pi's default (last entry in file order); null = explicit null leaf.
// Response: {"ok": true, "context": {messages, thinkingLevel, model}, "llm"?: [...],
//            "entries"?: [header, ...migrated entries], "tree"?: [{entry, depth, label?}...]}
//           or {"ok": false, "error": MESSAGE, "stack": ...}
// Usage:    node pi_context.mjs REQUEST_JSON...      one JSON line per argument
//           node pi_context.mjs < requests.jsonl     one JSON line per input line
//           node pi_context.mjs --batch < array.json one JSON array of responses
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Import the dist module directly: it exports loadEntriesFromFile (index.js does not) and loads
// in ~0.1 s, whereas index.js pulls in the whole agent (~1.4 s).
const piRef = process.env.PI_REF_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "..", ".pi-ref");
const piDist = join(piRef, "node_modules", "@mariozechner", "pi-coding-agent", "dist");
const { loadEntriesFromFile, migrateSessionEntries, buildSessionContext, SessionManager } = await import(
	pathToFileURL(join(piDist, "core", "session-manager.js")).href
);
const { convertToLlm } = await import(pathToFileURL(join(piDist, "core", "messages.js")).href);

function answer(request) {
	const { file } = request;
	if (typeof file !== "string") throw new Error("request needs a string 'file'");
	// pi treats a missing file as a new empty session; for a test harness that is almost always a typo.
	if (!existsSync(file)) throw new Error(`no such file: ${file}`);

	const fileEntries = loadEntriesFromFile(file);
	migrateSessionEntries(fileEntries);
	// Same as SessionManager._buildIndex + getEntries: the leaf is the last non-header entry.
	const entries = fileEntries.filter((e) => e.type !== "session");
	const byId = new Map();
	let leafId = null;
	for (const entry of entries) {
		byId.set(entry.id, entry);
		leafId = entry.id;
	}
	if ("leaf" in request) leafId = request.leaf;

	const context = buildSessionContext(entries, leafId, byId);
	const response = { ok: true, context };
	if (request.llm) response.llm = convertToLlm(context.messages);
	if (request.entries) response.entries = fileEntries;
	if (request.tree) response.tree = treeOf(file);
	return response;
}

// A non-persisting manager loads, migrates and indexes exactly like open(), but its
// _rewriteFile() is a no-op, so the file stays untouched. getTree() nests one level per entry,
// too deep for Python's JSON parsers on long chains, so it is flattened to a pre-order list of
// {entry, depth, label?, labelTimestamp?}. Migration ids are random: they differ from "entries".
function treeOf(file) {
	const manager = SessionManager.inMemory(process.cwd());
	manager.setSessionFile(file);
	const flat = [];
	const stack = manager.getTree().map((node) => [node, 0]).reverse();
	while (stack.length > 0) {
		const [{ entry, children, label, labelTimestamp }, depth] = stack.pop();
		flat.push({ entry, depth, label, labelTimestamp });
		for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], depth + 1]);
	}
	return flat;
}

function safeAnswer(request) {
	try {
		return answer(request);
	} catch (error) {
		return { ok: false, error: String(error?.message ?? error), stack: error?.stack };
	}
}

const args = process.argv.slice(2);
if (args[0] === "--batch") {
	const requests = JSON.parse(readFileSync(0, "utf8"));
	process.stdout.write(`${JSON.stringify(requests.map(safeAnswer))}\n`);
} else {
	const lines = args.length > 0 ? args : readFileSync(0, "utf8").split("\n").filter((l) => l.trim());
	for (const line of lines) process.stdout.write(`${JSON.stringify(safeAnswer(JSON.parse(line)))}\n`);
}
