// Where MCP servers come from and what each says (docs/mcp.md): the person's `aside.mcp.servers`
// (VS Code's `servers` shape plus Aside's `disabled`, `disabledTools`, `timeout`), a workspace's
// `.vscode/mcp.json` (VS Code's `servers` and `inputs`) and `.mcp.json` (Claude Code's
// `mcpServers`). Each server is read alone: a broken one is named with why, and the others stand.
import * as z from 'zod';
import type { PreRegisteredClient } from './oauth';

/** Where a server was configured: the person's own settings, or a file of the workspace. */
export type ServerOrigin = { readonly kind: 'user' } | { readonly kind: 'workspace'; readonly file: '.vscode/mcp.json' | '.mcp.json'; readonly path: string };

interface Common {
	/** As configured (its key); tools are named after it once sanitised (names.ts). */
	readonly name: string;
	readonly origin: ServerOrigin;
	/** Aside's own: the server is configured but does not start. */
	readonly disabled: boolean;
	/** Aside's own: tools of the server that are never offered. */
	readonly disabledTools: readonly string[];
	/** Aside's own: the request timeout in milliseconds, when the server has its own. */
	readonly timeoutMs?: number;
	/**
	 * Aside's own, honoured only in the person's settings: the server's tool annotations are
	 * believed, so a `readOnlyHint` tool runs without asking (the spec calls annotations untrusted
	 * otherwise). A workspace file can never say it of its own servers.
	 */
	readonly trustAnnotations: boolean;
}

export interface StdioServer extends Common {
	readonly transport: 'stdio';
	readonly command: string;
	readonly args: readonly string[];
	readonly cwd?: string;
	/** Added to the extension host's environment; `null` removes a variable. */
	readonly env: Readonly<Record<string, string | null>>;
	readonly envFile?: string;
}

export interface HttpServer extends Common {
	/** `http`: Streamable HTTP; `sse`: the older HTTP+SSE transport. */
	readonly transport: 'http' | 'sse';
	readonly url: string;
	readonly headers: Readonly<Record<string, string>>;
	/** Its OAuth client registered beforehand (`oauth`), for a server whose authorization server registers none. */
	readonly oauth?: PreRegisteredClient;
}

export type ServerConfig = StdioServer | HttpServer;

/** A VS Code `inputs` entry: asked once, kept in SecretStorage, used as `${input:id}`. */
export interface ServerInput {
	readonly id: string;
	readonly description: string;
	readonly password: boolean;
	readonly default?: string;
}

/** One server that could not be read, and why, in words for the person. */
export interface ServerProblem {
	readonly name: string;
	readonly origin: ServerOrigin;
	readonly message: string;
}

export interface ReadServers {
	readonly servers: readonly ServerConfig[];
	readonly inputs: readonly ServerInput[];
	readonly problems: readonly ServerProblem[];
}

const Strings = z.array(z.string());
const Aside = {
	disabled: z.boolean().optional(),
	disabledTools: Strings.optional(),
	timeout: z.number().int().min(1000).max(3_600_000).optional(),
	trustAnnotations: z.boolean().optional(),
};
const Stdio = z.object({
	type: z.literal('stdio').optional(),
	command: z.string().min(1, 'a stdio server needs a command'),
	args: Strings.optional(),
	cwd: z.string().optional(),
	env: z.record(z.string(), z.union([z.string(), z.number(), z.null()])).optional(),
	envFile: z.string().optional(),
	...Aside,
});
const Http = z.object({
	type: z.enum(['http', 'sse', 'streamable-http']).optional(),
	// A url with variables is checked once they are resolved (variables.ts).
	url: z.string().refine((url) => url.includes('${') || isHttpUrl(url), 'the url must be an http or https URL'),
	headers: z.record(z.string(), z.string()).optional(),
	oauth: z.object({ clientId: z.string().min(1), clientSecret: z.string().optional() }).optional(),
	...Aside,
});
const Input = z.object({
	type: z.literal('promptString').optional(),
	id: z.string().min(1),
	description: z.string().optional(),
	password: z.boolean().optional(),
	default: z.string().optional(),
});

/** Whether `url` is an absolute http or https URL. */
export function isHttpUrl(url: string): boolean {
	try {
		const { protocol } = new URL(url);
		return protocol === 'http:' || protocol === 'https:';
	} catch {
		return false;
	}
}

/** Says what is wrong with one server's entry, shortly. */
function issues(error: z.ZodError): string {
	return error.issues
		.slice(0, 3)
		.map((issue) => (issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message))
		.join('; ');
}

/** One server's entry, whichever shape: stdio when it has a command, HTTP when it has a url. */
export function readServer(name: string, entry: unknown, origin: ServerOrigin): ServerConfig | ServerProblem {
	const problem = (message: string): ServerProblem => ({ name, origin, message: `MCP server "${name}" (${originWords(origin)}): ${message}` });
	if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
		return problem('its entry is not an object.');
	}
	const record = entry as Record<string, unknown>;
	const common = (parsed: z.infer<typeof Stdio> | z.infer<typeof Http>) => ({
		name,
		origin,
		disabled: parsed.disabled ?? false,
		disabledTools: parsed.disabledTools ?? [],
		...(parsed.timeout === undefined ? {} : { timeoutMs: parsed.timeout }),
		trustAnnotations: origin.kind === 'user' && parsed.trustAnnotations === true,
	});
	const isHttp = 'url' in record || record.type === 'http' || record.type === 'sse' || record.type === 'streamable-http';
	if (isHttp) {
		const parsed = Http.safeParse(record);
		if (!parsed.success) {
			return problem(`${issues(parsed.error)}.`);
		}
		const { url, headers, type, oauth } = parsed.data;
		const secret = oauth?.clientSecret === undefined ? {} : { clientSecret: oauth.clientSecret };
		const client = oauth === undefined ? {} : { oauth: { clientId: oauth.clientId, ...secret } };
		return { ...common(parsed.data), transport: type === 'sse' ? 'sse' : 'http', url, headers: headers ?? {}, ...client };
	}
	if (!('command' in record)) {
		return problem('it has neither a command (a stdio server) nor a url (an HTTP server).');
	}
	const parsed = Stdio.safeParse(record);
	if (!parsed.success) {
		return problem(`${issues(parsed.error)}.`);
	}
	const { command, args, cwd, env, envFile } = parsed.data;
	const environment = Object.fromEntries(Object.entries(env ?? {}).map(([key, value]) => [key, value === null ? null : String(value)]));
	return {
		...common(parsed.data),
		transport: 'stdio',
		command,
		args: args ?? [],
		env: environment,
		...(cwd === undefined ? {} : { cwd }),
		...(envFile === undefined ? {} : { envFile }),
	};
}

/** How a person would name where a server was configured. */
export function originWords(origin: ServerOrigin): string {
	return origin.kind === 'user' ? 'aside.mcp.servers in your user settings' : origin.file;
}

function readMap(map: unknown, origin: ServerOrigin, what: string): ReadServers {
	if (map === undefined) {
		return { servers: [], inputs: [], problems: [] };
	}
	if (typeof map !== 'object' || map === null || Array.isArray(map)) {
		return { servers: [], inputs: [], problems: [{ name: '', origin, message: `${originWords(origin)}: "${what}" is not an object of servers; none of its servers start.` }] };
	}
	const servers: ServerConfig[] = [];
	const problems: ServerProblem[] = [];
	for (const [name, entry] of Object.entries(map)) {
		const read = readServer(name, entry, origin);
		if ('message' in read) {
			problems.push(read);
		} else {
			servers.push(read);
		}
	}
	return { servers, inputs: [], problems };
}

/** The person's `aside.mcp.servers`: server name → entry. */
export function readUserServers(setting: unknown): ReadServers {
	return readMap(setting, { kind: 'user' }, 'aside.mcp.servers');
}

/** A workspace file's text: `.vscode/mcp.json` (`servers`, `inputs`) or `.mcp.json` (`mcpServers`). */
export function readWorkspaceFile(file: '.vscode/mcp.json' | '.mcp.json', path: string, text: string): ReadServers {
	const origin: ServerOrigin = { kind: 'workspace', file, path };
	let json: unknown;
	try {
		// VS Code's files may carry comments and trailing commas (JSONC).
		json = JSON.parse(stripJsonComments(text));
	} catch (error) {
		const why = error instanceof Error ? error.message : String(error);
		return { servers: [], inputs: [], problems: [{ name: '', origin, message: `${file} is not valid JSON (${why}); none of its servers start.` }] };
	}
	if (typeof json !== 'object' || json === null || Array.isArray(json)) {
		return { servers: [], inputs: [], problems: [{ name: '', origin, message: `${file} is not a JSON object; none of its servers start.` }] };
	}
	const object = json as Record<string, unknown>;
	const key = file === '.mcp.json' ? 'mcpServers' : 'servers';
	const read = readMap(object[key], origin, key);
	if (file === '.mcp.json') {
		return read;
	}
	const inputs: ServerInput[] = [];
	const problems = [...read.problems];
	for (const entry of Array.isArray(object.inputs) ? object.inputs : []) {
		const parsed = Input.safeParse(entry);
		if (parsed.success) {
			const { id, description, password, default: fallback } = parsed.data;
			inputs.push({ id, description: description ?? id, password: password ?? false, ...(fallback === undefined ? {} : { default: fallback }) });
		} else {
			problems.push({ name: '', origin, message: `${file}: an input is malformed (${issues(parsed.error)}); it is skipped.` });
		}
	}
	return { servers: read.servers, inputs, problems };
}

/** JSONC to JSON: comments and trailing commas removed, strings left as they are. */
export function stripJsonComments(text: string): string {
	let out = '';
	let index = 0;
	while (index < text.length) {
		const char = text[index] ?? '';
		const afterComment = commentEnd(text, index);
		if (char === '"') {
			const end = stringEnd(text, index);
			out += text.slice(index, end);
			index = end;
		} else if (afterComment !== undefined) {
			index = afterComment;
		} else {
			// A trailing comma (only blanks and comments before the closer) is dropped.
			const closer = char === ',' ? text[significantAfter(text, index + 1)] : undefined;
			if (closer !== '}' && closer !== ']') {
				out += char;
			}
			index++;
		}
	}
	return out;
}

/** Where the comment that starts at `index` ends (its line's end, or past its `*\/`); undefined when none starts there. */
function commentEnd(text: string, index: number): number | undefined {
	if (text.startsWith('//', index)) {
		const end = text.indexOf('\n', index);
		return end < 0 ? text.length : end;
	}
	if (text.startsWith('/*', index)) {
		const end = text.indexOf('*/', index + 2);
		return end < 0 ? text.length : end + 2;
	}
	return undefined;
}

/** Where the next character that is neither blank nor inside a comment stands. */
function significantAfter(text: string, from: number): number {
	let index = from;
	while (index < text.length) {
		const afterComment = commentEnd(text, index);
		if (afterComment !== undefined) {
			index = afterComment;
		} else if (/\s/.test(text[index] ?? '')) {
			index++;
		} else {
			return index;
		}
	}
	return index;
}

function stringEnd(text: string, start: number): number {
	let index = start + 1;
	while (index < text.length && text[index] !== '"') {
		index += text[index] === '\\' ? 2 : 1;
	}
	return Math.min(index + 1, text.length);
}
