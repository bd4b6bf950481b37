// A small real MCP server for the prompt specs, on the SDK the reference server itself runs on (the
// 1.x `@modelcontextprotocol/sdk` that server-everything depends on), over stdio: five prompts
// served two to a page, a tool `add-prompt` that adds one and sends `prompts/list_changed`, a
// prompt `review` whose messages hold what server-everything's do not (an assistant turn, an
// image, a long text resource, a binary one, a link), and no completion capability: every request
// it has no handler for is written to its stderr, so a spec can tell it was never asked.
import { dirname } from 'node:path';

export const EVERYTHING = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');

/** The text of the long resource in `review`: longer than a prompt's message carries of one. */
export const LONG_RESOURCE_CHARS = 40_000;

function sdk(path: string): string {
	return require.resolve(`@modelcontextprotocol/sdk/${path}`, { paths: [dirname(EVERYTHING)] });
}

const SCRIPT = `
const { Server } = require(${JSON.stringify(sdk('server/index.js'))});
const { StdioServerTransport } = require(${JSON.stringify(sdk('server/stdio.js'))});
const types = require(${JSON.stringify(sdk('types.js'))});
const prompts = ['alpha', 'beta', 'gamma', 'delta', 'review'].map((name) => ({ name, description: 'The prompt ' + name }));
const server = new Server({ name: 'paged-prompts', version: '1.0.0' }, { capabilities: { prompts: { listChanged: true }, tools: {} } });
server.setRequestHandler(types.ListPromptsRequestSchema, (request) => {
	const start = Number(request.params?.cursor ?? 0);
	process.stderr.write('listed from ' + start + '\\n');
	return { prompts: prompts.slice(start, start + 2), ...(start + 2 < prompts.length ? { nextCursor: String(start + 2) } : {}) };
});
server.setRequestHandler(types.GetPromptRequestSchema, (request) => {
	if (request.params.name !== 'review') {
		throw new Error('There is no prompt ' + request.params.name + ' here.');
	}
	return { messages: [
		{ role: 'user', content: { type: 'text', text: 'Review the parser.' } },
		{ role: 'assistant', content: { type: 'text', text: 'Which part first?\\n\\nThe tokenizer.' } },
		{ role: 'user', content: { type: 'image', data: 'iVBORw0KGgoAAAANSUhEUg==', mimeType: 'image/png' } },
		{ role: 'user', content: { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'n'.repeat(${LONG_RESOURCE_CHARS}) } } },
		{ role: 'user', content: { type: 'resource', resource: { uri: 'file:///data.bin', mimeType: 'application/octet-stream', blob: 'AAECAwQFBgc=' } } },
		{ role: 'user', content: { type: 'resource_link', uri: 'file:///README.md', name: 'README', description: 'the readme' } },
	] };
});
server.setRequestHandler(types.ListToolsRequestSchema, () => ({ tools: [{ name: 'add-prompt', description: 'Adds a prompt.', inputSchema: { type: 'object', properties: { name: { type: 'string' } } } }] }));
server.setRequestHandler(types.CallToolRequestSchema, async (request) => {
	prompts.push({ name: String(request.params.arguments.name), description: 'Added later' });
	await server.sendPromptListChanged();
	return { content: [{ type: 'text', text: 'added' }] };
});
server.fallbackRequestHandler = async (request) => {
	process.stderr.write('unhandled ' + request.method + '\\n');
	throw new Error('not here');
};
server.connect(new StdioServerTransport()).catch((error) => { process.stderr.write(String(error)); process.exit(1); });
`;

/** The server's configuration entry (a user setting's shape). */
export function pagedPromptServer(): { readonly command: string; readonly args: readonly string[] } {
	return { command: process.execPath, args: ['-e', SCRIPT] };
}

/** server-everything over stdio (a user setting's shape). */
export function everythingServer(): { readonly command: string; readonly args: readonly string[] } {
	return { command: process.execPath, args: [EVERYTHING, 'stdio'] };
}
