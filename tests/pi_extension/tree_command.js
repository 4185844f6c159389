/**
 * Test helper: `/tree-to ENTRY_ID` navigates pi's tree as `/tree` does, asking for a branch summary.
 * pi's RPC mode has no tree command, but an extension command gets `ctx.navigateTree`.
 */
export default function (pi) {
	pi.registerCommand("tree-to", {
		description: "Navigate to an entry, summarizing the branch left behind",
		handler: async (args, ctx) => {
			const result = await ctx.navigateTree(args.trim(), { summarize: true });
			ctx.ui.notify(`tree-to done: ${JSON.stringify(result)}`, "info");
		},
	});
}
