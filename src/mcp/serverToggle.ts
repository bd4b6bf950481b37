// The server list's Disable / Enable (docs/mcp.md): `disabled` written into one server's entry of
// `aside.mcp.servers` in the user settings, every other entry and field left as it was. Only the
// user settings' entries are rewritten: a workspace file's server is the file's to change.

/** The setting's new value with `server`'s `disabled` set, or why it cannot be (a sentence). */
export function withDisabled(setting: unknown, server: string, disabled: boolean): { readonly value: Record<string, unknown> } | { readonly refused: string } {
	if (typeof setting !== 'object' || setting === null || Array.isArray(setting)) {
		return { refused: `aside.mcp.servers in your user settings has no server named "${server}".` };
	}
	const servers = setting as Record<string, unknown>;
	const entry = Object.hasOwn(servers, server) ? servers[server] : undefined;
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
		return { refused: `aside.mcp.servers in your user settings has no server named "${server}".` };
	}
	// A fresh object keeps the keys in their order; only this entry is copied with the field changed.
	const value: Record<string, unknown> = {};
	for (const [name, other] of Object.entries(servers)) {
		value[name] = name === server ? { ...(other as Record<string, unknown>), disabled } : other;
	}
	return { value };
}
