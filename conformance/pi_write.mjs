// Has the real pi write a session file, so tests can check that our reader agrees with pi's writer.
//
// Why this exists: tests generate random trees as a list of operations; this replays them on pi's
// own persisted SessionManager, so the resulting file is byte-for-byte what pi would write.
//
// Usage:  node pi_write.mjs DIR [CWD] < script.json
//         script = [{"op": ...}, ...]; CWD (the header's cwd) defaults to DIR
//         node pi_write.mjs --batch < jobs.json
//         jobs = [{"dir": DIR, "cwd"?: CWD, "script": [...]}, ...] -> a JSON array of results
// Result: {"ok": true, "file", "ids": [id per op, null for branch/resetLeaf], "leaf", "context"}
//         or {"ok": false, "error", "stack"}; single mode then exits 1.
// "index"/"firstKeptIndex" in an op = position of an earlier op in the script; its id is used.
// A null/absent firstKeptIndex gives an undefined firstKeptEntryId; branchWithSummary index null = root.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// Imported from the dist file rather than index.js, which loads the whole agent (~1.4 s).
const piRef = process.env.PI_REF_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "..", ".pi-ref");
const piDist = join(piRef, "node_modules", "@mariozechner", "pi-coding-agent", "dist");
const { SessionManager } = await import(pathToFileURL(join(piDist, "core", "session-manager.js")).href);

function write(dir, cwd, script) {
	const sm = SessionManager.create(cwd ?? dir, dir);
	const ids = [];
	const idAt = (index) => {
		if (index === null || index === undefined) return undefined;
		if (!(index >= 0 && index < ids.length) || ids[index] === null) {
			throw new Error(`op ${ids.length}: index ${index} does not name an earlier op that created an entry`);
		}
		return ids[index];
	};
	const run = {
		message: (o) => sm.appendMessage(o.message),
		thinking: (o) => sm.appendThinkingLevelChange(o.level),
		model: (o) => sm.appendModelChange(o.provider, o.modelId),
		compaction: (o) =>
			sm.appendCompaction(o.summary, idAt(o.firstKeptIndex), o.tokensBefore, o.details, o.fromHook),
		branch: (o) => void sm.branch(idAt(o.index)),
		resetLeaf: () => void sm.resetLeaf(),
		branchWithSummary: (o) => sm.branchWithSummary(o.index == null ? null : idAt(o.index), o.summary, o.details, o.fromHook),
		// pi clears a label with `undefined`, which JSON cannot say; null stands in for it.
		label: (o) => sm.appendLabelChange(idAt(o.index), o.label ?? undefined),
		name: (o) => sm.appendSessionInfo(o.name),
		custom: (o) => sm.appendCustomEntry(o.customType, o.data),
		customMessage: (o) => sm.appendCustomMessageEntry(o.customType, o.content, o.display, o.details),
	};
	for (const op of script) {
		const step = run[op.op];
		if (!step) throw new Error(`op ${ids.length}: unknown op ${JSON.stringify(op.op)}`);
		ids.push(step(op) ?? null);
	}
	return { ok: true, file: sm.getSessionFile(), ids, leaf: sm.getLeafId(), context: sm.buildSessionContext() };
}

function safeWrite(job) {
	try {
		return write(job.dir, job.cwd, job.script);
	} catch (error) {
		return { ok: false, error: String(error?.message ?? error), stack: error?.stack };
	}
}

const input = JSON.parse(readFileSync(0, "utf8"));
if (process.argv[2] === "--batch") {
	process.stdout.write(`${JSON.stringify(input.map(safeWrite))}\n`);
} else {
	const [dir, cwd] = process.argv.slice(2);
	if (!dir) throw new Error("usage: node pi_write.mjs DIR [CWD] < script.json");
	const result = safeWrite({ dir, cwd, script: input });
	process.stdout.write(`${JSON.stringify(result)}\n`);
	if (!result.ok) process.exitCode = 1;
}
