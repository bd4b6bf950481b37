// From a server's configuration (variables resolved, variables.ts) to what is launched or reached.
// A stdio server gets the extension host's whole environment — not the SDK's short allow-list,
// whose missing variables are the first cause of "the server won't start" elsewhere — then its
// `envFile`, then its `env`, where `null` removes a variable. It starts in its `cwd`, else the
// first workspace folder.
import { isAbsolute, join } from 'node:path';
import type { ServerConfig } from './serverConfig';
import type { Launch, StdioLaunch } from './session';

export interface LaunchContext {
	/** The extension host's environment. */
	readonly env: Readonly<Record<string, string | undefined>>;
	readonly workspaceFolder?: string;
	/** An `envFile`'s text; throws when it cannot be read. */
	readonly readFile: (path: string) => Promise<string>;
}

/** A `.env` file's variables: `KEY=value` lines, `export` allowed, quotes removed, `#` comments. */
export function parseEnvFile(text: string): Record<string, string> {
	const values: Record<string, string> = {};
	for (const raw of text.split(/\r?\n/)) {
		const line = raw.trim();
		if (line === '' || line.startsWith('#')) {
			continue;
		}
		const match = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=\s*(.*)$/.exec(line);
		if (!match) {
			continue;
		}
		const [, key = '', rest = ''] = match;
		const quoted = /^(["'])(.*)\1$/.exec(rest);
		if (quoted) {
			const inner = quoted[2] ?? '';
			values[key] = quoted[1] === '"' ? inner.replace(/\\n/g, '\n').replace(/\\"/g, '"') : inner;
		} else {
			values[key] = rest.replace(/\s+#.*$/, '');
		}
	}
	return values;
}

/** What to launch or reach for `server`; throws an Error for the person (an unreadable envFile). */
export async function launchOf(server: ServerConfig, context: LaunchContext): Promise<Launch> {
	if (server.transport !== 'stdio') {
		return { transport: server.transport, url: server.url, headers: server.headers, ...(server.oauth === undefined ? {} : { oauth: server.oauth }) };
	}
	const env = new Map<string, string>();
	for (const [key, value] of Object.entries(context.env)) {
		if (value !== undefined) {
			env.set(key, value);
		}
	}
	if (server.envFile !== undefined) {
		const path = isAbsolute(server.envFile) || context.workspaceFolder === undefined ? server.envFile : join(context.workspaceFolder, server.envFile);
		let text: string;
		try {
			text = await context.readFile(path);
		} catch (error) {
			throw new Error(`its envFile ${path} could not be read (${error instanceof Error ? error.message : String(error)}).`, { cause: error });
		}
		for (const [key, value] of Object.entries(parseEnvFile(text))) {
			env.set(key, value);
		}
	}
	for (const [key, value] of Object.entries(server.env)) {
		if (value === null) {
			env.delete(key);
		} else {
			env.set(key, value);
		}
	}
	const cwd = server.cwd ?? context.workspaceFolder;
	return { transport: 'stdio', command: server.command, args: server.args, env: Object.fromEntries(env), ...(cwd === undefined ? {} : { cwd }) };
}

/** The PATH a command was looked up in, from the environment it was launched with. */
function searchedPath(launch: StdioLaunch): string {
	const key = Object.keys(launch.env).find((name) => name.toUpperCase() === 'PATH');
	return key === undefined ? '' : (launch.env[key] ?? '');
}

/** Why a stdio server's command was not found, with the PATH that was searched. */
export function notFoundMessage(launch: StdioLaunch): string {
	const path = searchedPath(launch);
	const where = /[\\/]/.test(launch.command)
		? `there is no file ${launch.command}${launch.cwd === undefined ? '' : ` (relative to ${launch.cwd})`}`
		: path === ''
			? 'the PATH is empty'
			: `it is not on the PATH searched: ${path}`;
	return `its command "${launch.command}" was not found: ${where}. Give the command's full path, or add its folder to the PATH in the server's "env".`;
}
