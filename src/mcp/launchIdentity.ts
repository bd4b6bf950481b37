// What the person approves when a workspace's MCP server may start: its launch configuration as
// written (before variables are resolved, so a secret typed for `${input:…}` is never part of it).
// The approval is bound to this identity and asked again when it changes.
import { createHash } from 'node:crypto';
import type { ServerConfig } from './serverConfig';

/** The parts of a server that decide what runs or what is reached, in a fixed order. */
function launchParts(server: ServerConfig): unknown[] {
	const sorted = (values: Readonly<Record<string, unknown>>) => Object.keys(values).sort().map((key) => [key, values[key]]);
	return server.transport === 'stdio'
		? ['stdio', server.command, server.args, server.cwd ?? null, sorted(server.env), server.envFile ?? null]
		: [server.transport, server.url, sorted(server.headers)];
}

/** A short, stable identity of the server's launch configuration (its name and origin included). */
export function launchIdentity(server: ServerConfig): string {
	const origin = server.origin.kind === 'user' ? ['user'] : ['workspace', server.origin.file];
	return createHash('sha256').update(JSON.stringify([server.name, origin, launchParts(server)])).digest('hex').slice(0, 32);
}
