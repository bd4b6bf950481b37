// The window's MCP prompts against real servers over stdio: the reference server (server-everything:
// a prompt without arguments, one with a required and an optional one, one whose arguments it
// completes) and a small server on the SDK it runs on (src/testing/mcpPromptServer.ts: prompts two
// to a page, a tool that adds one and says prompts/list_changed, no completion capability).
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { waitForEvent } from '../base/event';
import { everythingServer, pagedPromptServer } from '../testing/mcpPromptServer';
import { launchOf } from './launch';
import { McpPrompts, type PromptsDeps } from './prompts';
import { sdkConnector } from './sdkConnector';
import { readUserServers } from './serverConfig';
import { McpServers } from './servers';

const opened: { dispose(): void }[] = [];
after(() => {
	for (const one of opened.reverse()) {
		one.dispose();
	}
});

function promptsOf(setting: Record<string, unknown>, deps: Partial<PromptsDeps> = {}) {
	const stderr = new Map<string, string>();
	const servers = new McpServers({
		source: { read: () => readUserServers(setting), onDidChange: () => ({ dispose: () => undefined }) },
		connector: sdkConnector,
		launch: (config) => launchOf(config, { env: process.env, workspaceFolder: process.cwd(), readFile: () => Promise.reject(new Error('no env files here')) }),
		startupTimeoutMs: () => 20_000,
		requestTimeoutMs: () => 20_000,
		approve: () => Promise.resolve(true),
		output: (server) => ({ stderr: (text) => stderr.set(server, (stderr.get(server) ?? '') + text), log: () => undefined }),
	});
	const prompts = new McpPrompts(servers, { requestTimeoutMs: () => 20_000, ...deps });
	opened.push(servers, prompts);
	return { servers, prompts, stderr };
}

/** Resolves once `check` holds, looked at after every change of the prompts. */
async function until(prompts: McpPrompts, check: () => boolean, what: string): Promise<void> {
	if (!check()) {
		await waitForEvent(prompts.onDidChange, check, 20_000, what);
	}
}

const signal = () => new AbortController().signal;

describe('MCP prompts', () => {
	it('lists server-everything\'s prompts once it connects, fills one in, and completes an argument with the ones before it', async () => {
		const { servers, prompts } = promptsOf({ everything: everythingServer() });
		assert.deepEqual(prompts.servers(), [], 'nothing before the servers start');
		await servers.ready(signal());
		await until(prompts, () => prompts.servers().length === 1, 'the prompts');
		const [listed] = prompts.servers();
		assert.equal(listed?.server, 'everything');
		assert.equal(listed.completions, true, 'it declares the completions capability');
		const byName = new Map(listed.prompts.map((prompt) => [prompt.name, prompt]));
		assert.deepEqual(byName.get('simple-prompt')?.arguments, []);
		assert.deepEqual(byName.get('args-prompt')?.arguments, [{ name: 'city', description: 'Name of the city', required: true }, { name: 'state', required: false }]);
		assert.equal(byName.get('args-prompt')?.description, 'A prompt with two arguments, one required and one optional');

		const filled = await prompts.get('everything', 'args-prompt', { city: 'Paris', state: 'Texas' }, signal());
		assert.deepEqual(filled.messages, [{ role: 'user', content: { type: 'text', text: 'What\'s weather in Paris, Texas?' } }]);

		const departments = await prompts.complete('everything', 'completable-prompt', { name: 'department', value: 'S' }, {}, signal());
		assert.deepEqual(departments, { values: ['Sales', 'Support'], hasMore: false });
		const people = await prompts.complete('everything', 'completable-prompt', { name: 'name', value: '' }, { department: 'Sales' }, signal());
		assert.deepEqual(people.values, ['David', 'Eve', 'Frank'], 'the department given before narrows the names');

		await assert.rejects(prompts.get('everything', 'args-prompt', {}, signal()), /city/, 'the server\'s own error');
		await assert.rejects(prompts.get('elsewhere', 'x', {}, signal()), /The MCP server "elsewhere" is not connected\./);
	});

	it('walks every page of prompts/list, lists again on prompts/list_changed, and asks no completion of a server that offers none', async () => {
		const { servers, prompts, stderr } = promptsOf({ paged: pagedPromptServer() });
		await servers.ready(signal());
		await until(prompts, () => prompts.servers().length === 1, 'the prompts');
		const names = () => prompts.servers()[0]?.prompts.map((prompt) => prompt.name) ?? [];
		assert.deepEqual(names(), ['alpha', 'beta', 'gamma', 'delta', 'review'], 'three pages, in order');
		// Its stderr comes on its own pipe, maybe after the last page's answer: waited for, not raced.
		for (let tries = 0; tries < 100 && !/listed from 4\n/.test(stderr.get('paged') ?? ''); tries++) {
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
		assert.match(stderr.get('paged') ?? '', /listed from 0\nlisted from 2\nlisted from 4\n/);
		assert.equal(prompts.servers()[0]?.completions, false);

		const session = servers.sessionOf('paged');
		assert.ok(session);
		const changed = waitForEvent(prompts.onDidChange, () => names().includes('epsilon'), 20_000, 'the listing after list_changed');
		await session.callTool('add-prompt', { name: 'epsilon' }, { signal: signal(), timeoutMs: 20_000 });
		await changed;
		assert.deepEqual(names(), ['alpha', 'beta', 'gamma', 'delta', 'review', 'epsilon']);

		assert.deepEqual(await prompts.complete('paged', 'alpha', { name: 'x', value: 'a' }, {}, signal()), { values: [], hasMore: false });
		assert.doesNotMatch(stderr.get('paged') ?? '', /completion\/complete/, 'never asked');
		const review = await prompts.get('paged', 'review', {}, signal());
		assert.deepEqual(review.messages.map(({ role, content }) => `${role} ${content.type}`), ['user text', 'assistant text', 'user image', 'user resource', 'user resource', 'user resource_link']);
	});

	it('a server that drops loses its prompts, and has them again once it reconnects', async () => {
		const { servers, prompts } = promptsOf({ everything: everythingServer() });
		await servers.ready(signal());
		await until(prompts, () => prompts.servers().length === 1, 'the prompts');
		const pid = servers.pids().get('everything');
		assert.ok(pid !== undefined);
		const gone = waitForEvent(prompts.onDidChange, () => prompts.servers().length === 0, 20_000, 'the prompts gone');
		process.kill(pid, 'SIGKILL');
		await gone;
		await until(prompts, () => prompts.servers().length === 1, 'the prompts after the reconnect');
		assert.notEqual(servers.pids().get('everything'), pid);
		const again = await prompts.get('everything', 'simple-prompt', {}, signal());
		assert.deepEqual(again.messages[0]?.content, { type: 'text', text: 'This is a simple prompt without arguments.' });
	});

	it('offers nothing in Restricted Mode, even of a connected server', async () => {
		let trusted = true;
		const { servers, prompts } = promptsOf({ everything: everythingServer() }, { enabled: () => trusted });
		await servers.ready(signal());
		await until(prompts, () => prompts.servers().length === 1, 'the prompts');
		trusted = false;
		assert.deepEqual(prompts.servers(), []);
		await assert.rejects(prompts.get('everything', 'simple-prompt', {}, signal()), /Restricted Mode/);
	});
});
