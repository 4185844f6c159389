// Asks the real pi what a session file means, without ever writing to it.
//
// Why this exists: pi's SessionManager.open() rewrites files it migrates or finds corrupt, so the
// conformance tests instead replay what SessionManager does on open using pi's own exported pure
// functions (loadEntriesFromFile -> migrateSessionEntries -> buildSessionContext).
//
// Request:  {"file": PATH, "leaf"?: ID|null, "entries"?: true, "tree"?: true, "llm"?: true,
//            "uuids"?: [UUID...]}
//   "leaf" absent = pi's default (last entry in file order); null = explicit null leaf.
//   "uuids": what pi's randomUUID() returns first for this request (tests of the clash check below).
// Response: {"ok": true, "context": {messages, thinkingLevel, model}, "llm"?: [...],
//            "entries"?: [header, ...migrated entries], "tree"?: [{entry, depth, label?}...]}
//           or {"ok": false, "error": MESSAGE, "stack": ...}; "piBug": true when pi itself would never
//           answer (see below)
// Usage:    node pi_context.mjs REQUEST_JSON...      one JSON line per argument
//           node pi_context.mjs < requests.jsonl     one JSON line per input line
//           node pi_context.mjs --batch < array.json one JSON array of responses
import crypto from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// pi 0.73.1 BUG (not to be copied): migrateV1ToV2 gives each v1 entry generateId(ids), 8 hex digits of
// randomUUID(), "collision-checked" against `ids`, a Set it never adds to. So two entries of one file can get
// the same id (about 1 in 8,600 migrations of a 1,000-entry file), the later one's id then names both, the
// parent chain loops (the entry after the earlier one points at the later one), and buildSessionContext's
// walk to the root and getTree()'s child sort never end: a node child at 100% CPU, answering at once when
// run again with other random ids. Two full test runs of this project stalled on it. The harness therefore
// (1) makes randomUUID() a seeded generator, restarted for every request, so each answer (migrated ids
// included) is the same on every run, and (2) checks the migrated ids and the parent chain before handing
// them to pi: a clash or a cycle is answered {"ok": false, "piBug": true} instead of hanging.
const SEED = 0x9e3779b9;
let uuidState = SEED;
let scriptedUuids = [];
function seededUuid() {
	if (scriptedUuids.length > 0) return scriptedUuids.shift();
	const hex = [];
	for (let i = 0; i < 4; i++) {
		// mulberry32: a small, well-mixed 32-bit generator; 4 draws make the 32 hex digits of a UUID
		uuidState = (uuidState + 0x6d2b79f5) | 0;
		let t = Math.imul(uuidState ^ (uuidState >>> 15), uuidState | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		hex.push(((t ^ (t >>> 14)) >>> 0).toString(16).padStart(8, "0"));
	}
	const digits = hex.join("");
	return `${digits.slice(0, 8)}-${digits.slice(8, 12)}-4${digits.slice(13, 16)}-8${digits.slice(17, 20)}-${digits.slice(20)}`;
}
crypto.randomUUID = seededUuid;
syncBuiltinESMExports(); // pi's `import { randomUUID } from "crypto"` now sees the seeded one

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

	uuidState = SEED;
	scriptedUuids = Array.isArray(request.uuids) ? [...request.uuids] : [];
	const fileEntries = loadEntriesFromFile(file);
	const version = fileEntries.find((e) => e.type === "session")?.version ?? 1;
	migrateSessionEntries(fileEntries);
	// Same as SessionManager._buildIndex + getEntries: the leaf is the last non-header entry.
	const entries = fileEntries.filter((e) => e.type !== "session");
	const byId = new Map();
	let leafId = null;
	let clash = null;
	for (const entry of entries) {
		if (version < 2 && byId.has(entry.id)) clash ??= entry.id;
		byId.set(entry.id, entry);
		leafId = entry.id;
	}
	if ("leaf" in request) leafId = request.leaf;
	const cause = clash === null ? "" : `pi's v1 migration gave two entries the id ${clash}, so `;
	const cycle = parentCycle(entries, leafId, byId);
	if (cycle !== null) return piBug(`${cause}the parent chain loops through ${cycle}`);
	// getTree() then lists the later entry under both parents, one of them below itself: its sort never ends
	if (clash !== null && request.tree) return piBug(`${cause}the tree holds a loop`);

	const context = buildSessionContext(entries, leafId, byId);
	const response = { ok: true, context };
	if (request.llm) response.llm = convertToLlm(context.messages);
	if (request.entries) response.entries = fileEntries;
	if (request.tree) response.tree = treeOf(file, Array.isArray(request.uuids) ? request.uuids : []);
	return response;
}

function piBug(what) {
	return { ok: false, piBug: true, error: `${what}: pi would walk it forever (buildSessionContext, getTree)` };
}

// The id where the walk from the leaf to the root (as buildSessionContext takes it) comes back on itself, or
// null. Only this walk: a loop elsewhere in the file does not stop pi from answering.
function parentCycle(entries, leafId, byId) {
	if (leafId === null) return null; // pi answers an empty context at once
	const seen = new Set();
	let current = (leafId && byId.get(leafId)) || entries[entries.length - 1]; // pi's fallback to the last entry
	while (current) {
		if (seen.has(current)) return current.id;
		seen.add(current);
		current = current.parentId ? byId.get(current.parentId) : undefined;
	}
	return null;
}

// A non-persisting manager loads, migrates and indexes exactly like open(), but its
// _rewriteFile() is a no-op, so the file stays untouched. getTree() nests one level per entry,
// too deep for Python's JSON parsers on long chains, so it is flattened to a pre-order list of
// {entry, depth, label?, labelTimestamp?}. It migrates again; the generator restarts, so its ids are those
// of "entries", already checked for clashes.
function treeOf(file, uuids) {
	uuidState = SEED;
	scriptedUuids = [...uuids];
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
