// The variables an MCP server's configuration may use, in every place that launches or reaches it
// (command, args, cwd, env values, envFile, url, header values): `${workspaceFolder}`,
// `${userHome}`, `${env:X}` (VS Code's: unset is empty), `${X}` and `${X:-default}` (Claude Code's:
// unset without a default is an error), and `${input:id}` (asked once, kept in SecretStorage by
// the caller). A server whose variables cannot be resolved fails alone, with what was missing.
import type { HttpServer, ServerConfig, ServerProblem, StdioServer } from './serverConfig';
import { isHttpUrl, originWords } from './serverConfig';

export interface VariableContext {
	/** The first workspace folder, absolute; none without a workspace. */
	readonly workspaceFolder?: string;
	readonly userHome: string;
	readonly env: Readonly<Record<string, string | undefined>>;
	/** The value of `${input:id}`; undefined when the person did not give one. None: inputs are not offered here. */
	readonly input?: (id: string) => Promise<string | undefined>;
}

class Unresolved extends Error {}

const VARIABLE = /\$\{([^}]*)\}/g;

/** `text` with its variables replaced; throws Unresolved naming the first that cannot be. */
async function substitute(text: string, context: VariableContext): Promise<string> {
	let out = '';
	let last = 0;
	for (const match of text.matchAll(VARIABLE)) {
		out += text.slice(last, match.index) + (await valueOf(match[1] ?? '', context));
		last = match.index + match[0].length;
	}
	return out + text.slice(last);
}

async function valueOf(name: string, context: VariableContext): Promise<string> {
	if (name === 'workspaceFolder') {
		if (context.workspaceFolder === undefined) {
			throw new Unresolved('${workspaceFolder} is used, but no folder is open.');
		}
		return context.workspaceFolder;
	}
	if (name === 'userHome') {
		return context.userHome;
	}
	if (name.startsWith('env:')) {
		return context.env[name.slice(4)] ?? '';
	}
	if (name.startsWith('input:')) {
		const id = name.slice(6);
		const value = context.input ? await context.input(id) : undefined;
		if (value === undefined) {
			throw new Unresolved(`\${input:${id}} was not given.`);
		}
		return value;
	}
	const bare = /^([A-Za-z_][A-Za-z0-9_]*)(?::-(.*))?$/s.exec(name);
	if (!bare) {
		throw new Unresolved(`\${${name}} is not a variable Aside knows (\${workspaceFolder}, \${userHome}, \${env:NAME}, \${NAME}, \${NAME:-default}, \${input:id}).`);
	}
	const value = context.env[bare[1] ?? ''];
	if (value !== undefined) {
		return value;
	}
	if (bare[2] !== undefined) {
		return bare[2];
	}
	throw new Unresolved(`the environment variable ${bare[1] ?? ''} is not set and \${${name}} gives no default (write \${${name}:-default}).`);
}

async function record<T extends string | null>(values: Readonly<Record<string, T>>, context: VariableContext): Promise<Record<string, T | string>> {
	const out: Record<string, T | string> = {};
	for (const [key, value] of Object.entries(values)) {
		out[key] = value === null ? value : await substitute(value, context);
	}
	return out;
}

/** The server with its variables resolved, or why it cannot start. */
export async function resolveVariables(server: ServerConfig, context: VariableContext): Promise<ServerConfig | ServerProblem> {
	try {
		if (server.transport === 'stdio') {
			const resolved: StdioServer = {
				...server,
				command: await substitute(server.command, context),
				args: await Promise.all(server.args.map((arg) => substitute(arg, context))),
				env: await record(server.env, context),
				...(server.cwd === undefined ? {} : { cwd: await substitute(server.cwd, context) }),
				...(server.envFile === undefined ? {} : { envFile: await substitute(server.envFile, context) }),
			};
			return resolved;
		}
		const secret = server.oauth?.clientSecret === undefined ? undefined : await substitute(server.oauth.clientSecret, context);
		const oauth = server.oauth === undefined ? {} : { oauth: { ...server.oauth, ...(secret === undefined ? {} : { clientSecret: secret }) } };
		const resolved: HttpServer = { ...server, url: await substitute(server.url, context), headers: await record(server.headers, context), ...oauth };
		if (!isHttpUrl(resolved.url)) {
			throw new Unresolved(`its url is not an http or https URL once its variables are resolved (${resolved.url}).`);
		}
		return resolved;
	} catch (error) {
		if (error instanceof Unresolved) {
			return { name: server.name, origin: server.origin, message: `MCP server "${server.name}" (${originWords(server.origin)}): ${error.message}` };
		}
		throw error;
	}
}

/** The `${input:id}` ids a server uses, in order, each once (to ask before it starts). */
export function inputsUsed(server: ServerConfig): string[] {
	const texts = server.transport === 'stdio'
		? [server.command, ...server.args, server.cwd ?? '', server.envFile ?? '', ...Object.values(server.env).map((value) => value ?? '')]
		: [server.url, ...Object.values(server.headers), server.oauth?.clientSecret ?? ''];
	const ids = texts.flatMap((text) => [...text.matchAll(VARIABLE)].flatMap((match) => (match[1]?.startsWith('input:') ? [match[1].slice(6)] : [])));
	return [...new Set(ids)];
}
