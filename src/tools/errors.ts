// An expected failure whose message is written for the model (a missing file, a path outside
// the workspace, an ambiguous edit). invokeTool passes its message through as it is; any other
// error is reported as "<Tool> failed: …".
export class ToolError extends Error {
	override readonly name = 'ToolError';
}
