/**
 * pi-compact for pi: compaction, branch summaries and a `recall` tool by pi-compact (Python, on PATH).
 *
 * Installed by `pi-compact extension install` (or loaded with `pi -e "$(pi-compact extension path)"`).
 * Each event starts `pi-compact extension serve` and talks to it in one JSON request and one JSON response
 * (the protocol: `pydoc pi_compact.pi_extension`). The request carries pi's current model and its API key on
 * stdin, never on a command line. Whatever goes wrong — pi-compact missing, too old, failing, slower than
 * the timeout, or pi aborting — the handler returns nothing, so pi does what it does without this file, and
 * says so in one notice line.
 *
 * Environment: PI_COMPACT_COMMAND (the executable, default `pi-compact` on PATH), PI_COMPACT_TIMEOUT_MS
 * (default 180000 for summaries; recall gets a fifth of it), PI_COMPACT_EXTENSION=off (load but do nothing).
 */

import { spawn } from "node:child_process";
import { Type } from "typebox";

const PROTOCOL = 1;
const COMMAND = process.env.PI_COMPACT_COMMAND || "pi-compact";
const TIMEOUT_MS = Number(process.env.PI_COMPACT_TIMEOUT_MS) > 0 ? Number(process.env.PI_COMPACT_TIMEOUT_MS) : 180000;
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
const NOTICE = "pi-compact";

// Children still running when pi exits (quit, SIGTERM) are killed, not left to finish a summary nobody reads.
// One set and one listener per process, however often pi reloads the extension.
const CHILDREN = (globalThis[Symbol.for("pi-compact.children")] ??= new Set());
if (!globalThis[Symbol.for("pi-compact.exit-hook")]) {
	globalThis[Symbol.for("pi-compact.exit-hook")] = true;
	process.on("exit", () => {
		for (const child of CHILDREN) {
			try {
				child.kill("SIGKILL");
			} catch {}
		}
	});
}

/** Run one request; resolves to {ok: true, response} or {ok: false, why} and never rejects. */
function request(payload, { signal, timeoutMs = TIMEOUT_MS } = {}) {
	return new Promise((resolve) => {
		let settled = false;
		let timer;
		const finish = (result) => {
			if (settled) return;
			settled = true;
			clearTimeout(timer);
			if (child) CHILDREN.delete(child);
			signal?.removeEventListener?.("abort", onAbort);
			resolve(result);
		};
		let child;
		try {
			child = spawn(COMMAND, ["extension", "serve"], { stdio: ["pipe", "pipe", "pipe"], windowsHide: true });
		} catch (error) {
			finish({ ok: false, why: `cannot start ${COMMAND}: ${error.message}` });
			return;
		}
		CHILDREN.add(child);
		const kill = () => {
			try {
				child.kill("SIGKILL");
			} catch {}
		};
		timer = setTimeout(() => {
			kill();
			finish({ ok: false, why: `${COMMAND} took longer than ${Math.round(timeoutMs / 1000)} s` });
		}, timeoutMs);
		const onAbort = () => {
			kill();
			finish({ ok: false, why: "cancelled", aborted: true });
		};
		if (signal?.aborted) return onAbort();
		signal?.addEventListener?.("abort", onAbort, { once: true });
		const out = [];
		let outBytes = 0;
		let err = "";
		child.stdout.on("data", (chunk) => {
			outBytes += chunk.length;
			if (outBytes > MAX_OUTPUT_BYTES) {
				kill();
				finish({ ok: false, why: `${COMMAND} answered more than ${MAX_OUTPUT_BYTES} bytes` });
			} else out.push(chunk);
		});
		child.stderr.on("data", (chunk) => {
			if (err.length < 4096) err += chunk.toString("utf8");
		});
		child.on("error", (error) => {
			const missing = error.code === "ENOENT";
			finish({ ok: false, why: missing ? `${COMMAND} not found on PATH` : `cannot start ${COMMAND}: ${error.message}` });
		});
		child.on("close", (code, sig) => finish(answer(Buffer.concat(out).toString("utf8"), err, code, sig)));
		child.stdin.on("error", () => {}); // a child that exits before reading everything: its answer says why
		child.stdin.end(JSON.stringify({ protocol: PROTOCOL, ...payload }));
	});
}

/** Judge what the child printed: a response of our protocol, an older pi-compact, or a failure. */
function answer(stdout, stderr, code, sig) {
	let response;
	try {
		response = JSON.parse(stdout);
	} catch {
		const line = lastLine(stderr);
		if (/No such command|no such option|Usage:/i.test(stderr)) {
			return { ok: false, why: `${COMMAND} is too old for this extension (no 'extension serve'): upgrade it` };
		}
		return { ok: false, why: `${COMMAND} failed (${sig ?? `exit ${code}`})${line ? `: ${line}` : ""}` };
	}
	if (!response || typeof response !== "object" || typeof response.protocol !== "number") {
		return { ok: false, why: `${COMMAND} answered something that is not this protocol` };
	}
	if (response.protocol < PROTOCOL || response.code === "protocol") {
		return { ok: false, why: `${COMMAND} speaks protocol ${response.protocol}, this extension ${PROTOCOL}: ${response.error ?? "upgrade pi-compact"}` };
	}
	if (!response.ok) return { ok: false, why: String(response.error) };
	return { ok: true, response };
}

/** The last line of an error output: Python's traceback, click and our CLI all end with the one that matters. */
function lastLine(text) {
	return (text || "").trim().split("\n").filter(Boolean).pop()?.slice(0, 300) ?? "";
}

/** pi's current model and the key pi would use with it (sent on stdin only). */
async function modelInfo(ctx) {
	const model = ctx.model;
	if (!model) return null;
	let apiKey;
	try {
		const auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
		if (auth?.ok && auth.apiKey) apiKey = auth.apiKey;
	} catch {}
	return {
		provider: model.provider,
		id: model.id,
		api: model.api,
		baseUrl: model.baseUrl,
		contextWindow: model.contextWindow,
		apiKey,
	};
}

function fixedTokens(ctx) {
	try {
		return Math.ceil((ctx.getSystemPrompt() || "").length / 4);
	} catch {
		return 0;
	}
}

function fallback(ctx, what, result) {
	if (result.aborted) return;
	ctx.ui.notify(`${NOTICE}: ${result.why}; pi's own ${what} runs instead`, "warning");
}

const enabled = (process.env.PI_COMPACT_EXTENSION || "").toLowerCase() !== "off";

export default function piCompact(pi) {
	if (!enabled) return;

	pi.on("session_before_compact", async (event, ctx) => {
		const { preparation, branchEntries, customInstructions, signal } = event;
		const ops = preparation.fileOps || {};
		const result = await request(
			{
				type: "compact",
				cwd: ctx.cwd,
				branchEntries,
				preparation: {
					...preparation,
					fileOps: { read: [...(ops.read || [])], written: [...(ops.written || [])], edited: [...(ops.edited || [])] },
				},
				customInstructions: customInstructions ?? null,
				model: await modelInfo(ctx),
				contextWindow: ctx.model?.contextWindow,
				fixedTokens: fixedTokens(ctx),
				deadlineSeconds: TIMEOUT_MS / 1000,
			},
			{ signal },
		);
		if (!result.ok || !result.response.compaction) return fallback(ctx, "compaction", result);
		const { compaction } = result.response;
		ctx.ui.notify(`${NOTICE}: compacted (${compaction.details?.strategy}, by ${compaction.details?.summarizer})`, "info");
		return { compaction };
	});

	pi.on("session_before_tree", async (event, ctx) => {
		const { preparation, signal } = event;
		if (!preparation.userWantsSummary || !preparation.entriesToSummarize?.length) return;
		const result = await request(
			{
				type: "branch_summary",
				cwd: ctx.cwd,
				preparation: {
					entriesToSummarize: preparation.entriesToSummarize,
					customInstructions: preparation.customInstructions ?? null,
				},
				model: await modelInfo(ctx),
				deadlineSeconds: TIMEOUT_MS / 1000,
			},
			{ signal },
		);
		if (!result.ok) return fallback(ctx, "branch summary", result);
		if (!result.response.summary) return;
		return { summary: result.response.summary };
	});

	pi.registerTool({
		name: "recall",
		label: "Recall",
		description:
			"Search the parts of this conversation that were compacted into a summary (with branches=true, also " +
			"abandoned branches): exact error messages, command output, file contents, earlier requests. Query by " +
			"text (case-insensitive: the phrase, else all its words), a file path, or an entry id. Returns short " +
			"excerpts with their entry ids, newest first; query an entry id to see more of that entry.",
		promptSnippet: "Search what compaction summarized away: exact errors, outputs, earlier requests",
		promptGuidelines: [
			"Use recall when a compaction summary mentions something whose exact text you need (an error message, a command's output, a file's earlier content).",
		],
		parameters: Type.Object({
			query: Type.String({ description: "Text, file path or entry id to look for" }),
			limit: Type.Optional(Type.Number({ description: "Maximum matches (default 10, at most 50)" })),
			branches: Type.Optional(Type.Boolean({ description: "Also search abandoned branches" })),
		}),
		async execute(_toolCallId, params, signal, _onUpdate, ctx) {
			const sessionFile = ctx.sessionManager.getSessionFile();
			if (!sessionFile) throw new Error("recall needs a saved session (this one is in memory only)");
			const result = await request(
				{
					type: "recall",
					sessionFile,
					leafId: ctx.sessionManager.getLeafId() ?? null,
					query: String(params.query ?? ""),
					limit: Number.isFinite(params.limit) ? Math.min(50, Math.max(1, Math.floor(params.limit))) : undefined,
					branches: params.branches ?? false,
				},
				{ signal, timeoutMs: Math.max(5000, TIMEOUT_MS / 5) },
			);
			if (!result.ok) throw new Error(`recall is unavailable: ${result.why}`);
			const { text, totalMatches, entriesSearched } = result.response;
			return { content: [{ type: "text", text }], details: { totalMatches, entriesSearched } };
		},
	});
}
