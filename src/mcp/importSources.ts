// Aside: Import MCP Servers… — what the person's other tools configure, as entries of
// `aside.mcp.servers`: VS Code's user `mcp.json` (`servers`), Claude Code's `~/.claude.json`
// (`mcpServers`, and the open folder's under `projects`), Cline's `cline_mcp_settings.json` and
// Claude Desktop's `claude_desktop_config.json` (`mcpServers`). Each entry is checked like Aside's
// own and written in VS Code's shape. A value that looks like a secret (an env variable or header
// named like a key, token, secret or password) is not copied into the settings, which may be
// synced: it becomes `${input:…}`, its value kept in SecretStorage by the caller.
import { readServer, stripJsonComments } from './serverConfig';

export type ImportSource = 'vscode' | 'claude-code' | 'cline' | 'claude-desktop';

export const SOURCE_NAMES: Readonly<Record<ImportSource, string>> = {
	vscode: 'VS Code (mcp.json)',
	'claude-code': 'Claude Code (~/.claude.json)',
	cline: 'Cline',
	'claude-desktop': 'Claude Desktop',
};

export interface ImportFile {
	readonly source: ImportSource;
	readonly path: string;
	readonly text: string;
}

export interface ImportCandidate {
	readonly source: ImportSource;
	readonly name: string;
	/** The entry as `aside.mcp.servers` takes it, secrets replaced by `${input:id}`. */
	readonly entry: Record<string, unknown>;
	/** Each `${input:id}` the entry now uses, with the value to keep in SecretStorage. */
	readonly secrets: Readonly<Record<string, string>>;
	/** What it runs or reaches, in one line. */
	readonly summary: string;
}

const SECRET_NAME = /key|token|secret|passw|auth|credential|cookie|session|(^|_)pat($|_)/i;

function object(value: unknown): Record<string, unknown> | undefined {
	return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** The input id a secret of `server` named `field` is kept under. */
function inputId(server: string, field: string): string {
	return `${server}-${field}`.replace(/[^A-Za-z0-9_.-]/g, '-');
}

/** An entry in VS Code's shape, from one of another tool's (Cline's transport names and timeout in seconds included). */
function normalised(raw: Record<string, unknown>): Record<string, unknown> {
	const entry: Record<string, unknown> = {};
	const transport = raw.type ?? raw.transportType;
	if (typeof raw.url === 'string') {
		entry.type = transport === 'sse' ? 'sse' : 'http';
		entry.url = raw.url;
		if (object(raw.headers)) {
			entry.headers = raw.headers;
		}
	} else {
		for (const key of ['command', 'args', 'cwd', 'env', 'envFile'] as const) {
			if (raw[key] !== undefined) {
				entry[key] = raw[key];
			}
		}
	}
	if (raw.disabled === true) {
		entry.disabled = true;
	}
	// Cline counts its timeout in seconds; Aside in milliseconds.
	if (typeof raw.timeout === 'number' && raw.timeout > 0) {
		entry.timeout = raw.timeout < 1000 ? raw.timeout * 1000 : raw.timeout;
	}
	return entry;
}

/** The entry with its secret-looking env and header values moved out, as `${input:id}`. */
function withoutSecrets(name: string, entry: Record<string, unknown>): { entry: Record<string, unknown>; secrets: Record<string, string> } {
	const secrets: Record<string, string> = {};
	const moved = { ...entry };
	for (const field of ['env', 'headers'] as const) {
		const values = object(entry[field]);
		if (!values) {
			continue;
		}
		const kept: Record<string, unknown> = {};
		for (const [key, value] of Object.entries(values)) {
			if (typeof value === 'string' && value !== '' && !value.includes('${') && SECRET_NAME.test(key)) {
				const id = inputId(name, key);
				secrets[id] = value;
				kept[key] = `\${input:${id}}`;
			} else {
				kept[key] = value;
			}
		}
		moved[field] = kept;
	}
	return { entry: moved, secrets };
}

function summaryOf(entry: Record<string, unknown>): string {
	if (typeof entry.url === 'string') {
		return `${entry.type === 'sse' ? 'SSE' : 'HTTP'} ${entry.url}`;
	}
	const args = Array.isArray(entry.args) ? entry.args.map(String) : [];
	return [String(entry.command), ...args].join(' ');
}

/** The server maps a file holds: VS Code's `servers`, the others' `mcpServers`, Claude Code's project ones for `folder`. */
function serverMaps(file: ImportFile, json: Record<string, unknown>, folder: string | undefined): Record<string, unknown>[] {
	if (file.source === 'vscode') {
		return [object(json.servers) ?? {}];
	}
	const maps = [object(json.mcpServers) ?? {}];
	if (file.source === 'claude-code' && folder !== undefined) {
		maps.push(object(object(object(json.projects)?.[folder])?.mcpServers) ?? {});
	}
	return maps;
}

/** Every server the files configure that Aside can run, and a sentence for each file or server it cannot. */
export function importCandidates(files: readonly ImportFile[], folder?: string): { readonly candidates: ImportCandidate[]; readonly problems: string[] } {
	const candidates: ImportCandidate[] = [];
	const problems: string[] = [];
	for (const file of files) {
		let json: Record<string, unknown> | undefined;
		try {
			json = object(JSON.parse(stripJsonComments(file.text)));
		} catch (error) {
			problems.push(`${file.path} is not valid JSON (${error instanceof Error ? error.message : String(error)}); nothing of it is offered.`);
			continue;
		}
		if (!json) {
			problems.push(`${file.path} is not a JSON object; nothing of it is offered.`);
			continue;
		}
		for (const map of serverMaps(file, json, folder)) {
			for (const [name, raw] of Object.entries(map)) {
				const entry = normalised(object(raw) ?? {});
				const read = readServer(name, entry, { kind: 'user' });
				if ('message' in read) {
					problems.push(`${SOURCE_NAMES[file.source]}: ${read.message.replace(/ \(aside\.mcp\.servers in your user settings\)/, '')}`);
					continue;
				}
				const { entry: safe, secrets } = withoutSecrets(name, entry);
				candidates.push({ source: file.source, name, entry: safe, secrets, summary: summaryOf(entry) });
			}
		}
	}
	return { candidates, problems };
}
