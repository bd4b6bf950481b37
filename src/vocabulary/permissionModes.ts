// The permission mode, defined once: the setting, the agent, and the protocol's mode picker all
// take it from here. No imports, so the webview's bundle may share it through src/protocol/.

/**
 * ask: every file change and command waits for the person; auto-edit: file changes run, commands
 * ask; plan: read-only tools; full-access: file changes and commands run without asking. In every
 * mode the rules (aside.permissions.rules) and the protected paths still refuse or ask
 * (src/agent/permissions/policy.ts, docs/permissions.md).
 */
export const PERMISSION_MODES = ['ask', 'auto-edit', 'plan', 'full-access'] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];
