// Measures the real pi (the pinned @mariozechner/pi-coding-agent in <project>/.pi-ref) on one session file.
//
// Usage: node bench/pi_bench.mjs FILE [APPENDS.json]
//   FILE must be a scratch copy: SessionManager.open may rewrite a file, and the appends go to its end.
// Prints one JSON object: open_s (SessionManager.open = read + parse + migrate + index), context_s
// (buildSessionContext on the leaf), the context's message count, model, thinking level and the sha256 of
// its compact JSON (for comparison with ours), append_ms (one appendMessage per message in APPENDS.json,
// each timed), and rss_sampled_mb (process RSS after each phase; the runner takes the true peak from wait4).
// The module is imported before any clock starts, as on the Python side.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";

const piRef = process.env.PI_REF_DIR ?? join(dirname(fileURLToPath(import.meta.url)), "..", ".pi-ref");
const piDist = join(piRef, "node_modules", "@mariozechner", "pi-coding-agent", "dist");
const { SessionManager } = await import(pathToFileURL(join(piDist, "core", "session-manager.js")).href);

const [file, appendsPath] = process.argv.slice(2);
if (!file) {
	console.error("usage: node pi_bench.mjs FILE [APPENDS.json]");
	process.exit(2);
}

let rssPeak = 0;
const sampleRss = () => {
	rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
};

const started = performance.now();
const manager = SessionManager.open(file);
const opened = performance.now();
sampleRss();
const context = manager.buildSessionContext();
const built = performance.now();
sampleRss();

const appendMs = [];
if (appendsPath) {
	const messages = JSON.parse(readFileSync(appendsPath, "utf8"));
	for (const message of messages) {
		const before = performance.now();
		manager.appendMessage(message);
		appendMs.push(performance.now() - before);
	}
	sampleRss();
}

const json = JSON.stringify(context);
process.stdout.write(
	`${JSON.stringify({
		open_s: (opened - started) / 1000,
		context_s: (built - opened) / 1000,
		entries: manager.getEntries().length,
		messages: context.messages.length,
		model: context.model,
		thinkingLevel: context.thinkingLevel,
		sha256: createHash("sha256").update(json).digest("hex"),
		append_ms: appendMs,
		rss_sampled_mb: rssPeak / 1e6,
	})}\n`,
);
