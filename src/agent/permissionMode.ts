// The permission mode, defined once: the setting, the agent, and the protocol's mode picker all
// take it from here. No imports, so the webview's bundle may share it through src/protocol/.

/** ask: every write and command waits for the person; auto-edit: writes run, commands ask; plan: read-only tools. */
export const PERMISSION_MODES = ['ask', 'auto-edit', 'plan'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];
