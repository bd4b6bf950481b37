// A running tool call's progress as its live row shows it (an MCP server's progress
// notifications, throttled by the host): live state in the agent view, never recorded.
import * as z from 'zod';

export const ToolProgressView = z.object({
	callId: z.string().min(1),
	/** The tool's name, as its row says it (and the bar's accessible name). */
	tool: z.string().min(1),
	/** Done so far, 0 to 1; absent: the server gives no total (an indeterminate bar). */
	fraction: z.number().min(0).max(1).optional(),
	/** The server's words, plain text on one line, already bounded by the host. */
	message: z.string().max(200).optional(),
});
export type ToolProgressView = z.infer<typeof ToolProgressView>;
