// Permission rules over the background processes' tools, through a real Agent and the real Run,
// RunOutput and RunStop over scripted processes: a rule naming Run covers RunOutput and RunStop,
// matched against the command of the process a call reaches; in ask mode neither ever asks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { Agent } from '../../agent/agent';
import { parsePermissionRules } from '../../agent/permissions/rules';
import { ChatSessions } from '../../agent/sessions';
import { Emitter } from '../../base/event';
import { ChatProcessList, type ProcessHost } from '../../terminal/processHost';
import { scriptedModels, testPorts } from '../../testing/agentPorts';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { ScriptedLauncher } from '../../testing/scriptedLauncher';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { MemoryLibrary, testEnvironment } from '../../testing/sessions';
import { BUILTIN_TOOLS } from '../../tools/registry';
import { PROCESSES_STATE } from './feature';

function setup(rules: unknown, ...steps: ConstructorParameters<typeof ScriptedProvider>) {
	const provider = new ScriptedProvider(...steps);
	const sessions = new ChatSessions(new MemoryLibrary(), testEnvironment(new FakeClock(), new SequentialIds('s')));
	const models = scriptedModels(provider);
	const launcher = new ScriptedLauncher();
	const host: ProcessHost = {
		launcher,
		outputPath: (stem) => `/kept/${stem}.txt`,
		file: () => undefined,
		foreground: () => ({ run: () => Promise.reject(new Error('no foreground command here')), dispose: () => undefined }),
		chats: new ChatProcessList(),
	};
	const agent = new Agent(
		{
			sessions,
			models,
			settings: { current: { maxOutputTokens: 1000, maxSteps: 10, permissionMode: 'ask' }, onDidChange: new Emitter<unknown>().event },
			system: () => 'system',
			permissions: () => ({ rules: parsePermissionRules(rules).rules, trusted: true, storage: [] }),
			features: [PROCESSES_STATE],
			featureServices: { processes: host },
		},
		testPorts(models, { tools: () => BUILTIN_TOOLS.filter((tool) => tool.name.startsWith('Run')) }),
	);
	const asked: string[] = [];
	agent.onDidChange((state) => {
		if (state.approval) {
			asked.push(`${state.approval.tool} ${state.approval.confirmation.target}`);
			agent.approve(state.approval.callId, true, undefined);
		}
	});
	/** The tool results the model got, by call id. */
	const results = () => new Map(sessions.current.records.flatMap((record) => (record.kind === 'tool-result' ? [[record.callId, record.content ?? '']] : [])));
	return { agent, sessions, asked, results, launcher };
}

const call = (id: string, name: string, input: Record<string, unknown>) => ({ toolCalls: [{ id, name, input }] });

describe('permission rules over the background processes\' tools', () => {
	it('RunOutput and RunStop of a process no deny rule matches run without asking in ask mode', async () => {
		const { agent, asked, results, launcher } = setup(
			{ allow: ['Run(npm run dev*)', 'Run(make watch)'], deny: ['Run(npm run dev*)'] },
			call('c1', 'Run', { command: 'make watch', background: true }),
			call('c2', 'RunOutput', { id: 'p1' }),
			call('c3', 'RunStop', { id: 'p1' }),
			{ text: 'Done.' },
		);
		const done = agent.startTurn('Watch it.');
		for (let i = 0; i < 200 && launcher.launched.length === 0; i++) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		assert.equal((await done).outcome, 'done');
		assert.deepEqual(asked, [], 'an allow rule let the Run start it; RunOutput and RunStop never ask');
		assert.match(results().get('c2') ?? '', /^p1 `make watch` — running since/);
		assert.match(results().get('c3') ?? '', /was stopped/);
		assert.equal(launcher.last.interrupted, true);
	});

	it('refuses RunOutput of a process whose command a deny rule matches', async () => {
		const { agent, results, launcher } = setup(
			{ allow: ['Run'], deny: ['Run(npm run dev*)'] },
			call('c1', 'Run', { command: 'npm run build', background: true }),
			call('c2', 'RunOutput', { id: 'p1' }),
			{ text: 'Done.' },
		);
		assert.equal((await agent.startTurn('Build it.')).outcome, 'done');
		assert.match(results().get('c2') ?? '', /running since/);
		const second = setup(
			{ deny: ['Run(npm run dev*)'] },
			call('c1', 'RunOutput', { id: 'p1' }),
			{ text: 'Done.' },
		);
		// p1 of this chat is `npm run dev`, started before the rule (here: by the test, as the registry would).
		const processes = second.agent.features.stateOf(PROCESSES_STATE, second.sessions.current);
		assert.ok('processes' in processes);
		await processes.processes.start('npm run dev -- --port 5173', '/ws', { kind: 'exit' });
		assert.equal((await second.agent.startTurn('How is it?')).outcome, 'done');
		assert.match(second.results().get('c1') ?? '', /the rule Run\(npm run dev\*\) in aside\.permissions\.rules "deny" refuses it/);
		assert.equal(launcher.launched.length, 1);
	});
});
