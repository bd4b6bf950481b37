import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { DetectedServer } from '../providers/localServers';
import { FakeTrust } from '../testing/fakeTrust';
import { RecordingLogger } from '../testing/recordingLogger';
import { appendUser, FakeAgentState, testSessions } from '../testing/sessions';
import { viewOfSetup } from '../testing/views';
import { NetworkGate } from './networkGate';
import type { ChatSessions } from './sessions';
import { type KeyNeeded, ProviderSetup } from './providerSetup';

const OLLAMA: DetectedServer = { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: 3 };

const settle = () => new Promise((resolve) => setImmediate(resolve));

function build(options: { trusted?: boolean; found?: readonly DetectedServer[]; need?: KeyNeeded; chat?: (sessions: ChatSessions) => void } = {}) {
	const log = new RecordingLogger();
	const trust = new FakeTrust(options.trusted ?? true);
	const gate = new NetworkGate(trust, log);
	const sessions = testSessions();
	options.chat?.(sessions);
	const agent = new FakeAgentState();
	const probes: AbortSignal[] = [];
	const actions: string[] = [];
	let need = options.need;
	const setup = new ProviderSetup({
		gate,
		agent,
		sessions,
		detect: (signal) => {
			probes.push(signal);
			return Promise.resolve(options.found ?? [OLLAMA]);
		},
		keyNeeded: () => Promise.resolve(need),
		actions: {
			chooseProvider: () => {
				actions.push('choose');
				return Promise.resolve();
			},
			useServer: (server) => {
				actions.push(`use ${server.baseUrl}`);
				return Promise.resolve();
			},
			storeKey: (wanted) => {
				actions.push(`key ${wanted.provider} ${wanted.origin}`);
				return Promise.resolve();
			},
		},
		log,
	});
	return {
		setup,
		trust,
		gate,
		sessions,
		agent,
		probes,
		actions,
		log,
		setNeed: (next: KeyNeeded | undefined) => {
			need = next;
		},
	};
}

describe('the first-run setup in the empty state', () => {
	it('looks for local servers while an empty chat says nothing can answer, and offers them by name', async () => {
		const { setup, probes, agent } = build();
		await settle();
		assert.equal(probes.length, 1);
		assert.deepEqual(viewOfSetup(setup), { detected: [{ id: 'ollama', label: 'Use Ollama on localhost:11434 (3 models)' }] });

		// Once something answers, the offer goes, and nothing is probed while it answers.
		agent.change({ problem: undefined });
		await settle();
		assert.deepEqual(viewOfSetup(setup).detected, []);
		setup.viewShown();
		await settle();
		assert.equal(probes.length, 1);
	});

	it('probes nothing in an untrusted workspace until the person acts', async () => {
		const { setup, probes, actions } = build({ trusted: false });
		await settle();
		setup.viewShown();
		await settle();
		assert.equal(probes.length, 0, 'no probe at activation or when the view shows');
		setup.chooseProvider();
		await settle();
		assert.deepEqual(actions, ['choose']);
		assert.equal(probes.length, 1, 'choosing a provider is the person acting');

		const other = build({ trusted: false });
		await settle();
		other.trust.grant();
		await settle();
		assert.equal(other.probes.length, 1, 'trusting the workspace opens the gate');
	});

	it('does not probe for a chat that has messages', async () => {
		const { probes, setup } = build({
			chat: (sessions) => {
				appendUser(sessions.current, 'hello');
			},
		});
		await settle();
		setup.viewShown();
		await settle();
		assert.equal(probes.length, 0);
	});

	it('uses only a server it found itself, by id', async () => {
		const { setup, actions, log } = build();
		await settle();
		setup.useDetected('lmstudio');
		assert.deepEqual(actions, []);
		assert.match(log.at('warn')[0] ?? '', /not among those found/);
		setup.useDetected('ollama');
		await settle();
		assert.deepEqual(actions, ['use http://localhost:11434/v1']);
	});

	it('offers to store the key a provider lacks, for the origin it names', async () => {
		const { setup, actions, agent, setNeed } = build({ need: { provider: 'anthropic', label: 'Anthropic', origin: 'http://127.0.0.1:4000' } });
		await settle();
		assert.deepEqual(viewOfSetup(setup).keyNeeded, { provider: 'Anthropic', origin: 'http://127.0.0.1:4000' });
		setup.storeKey();
		await settle();
		assert.deepEqual(actions, ['key anthropic http://127.0.0.1:4000']);

		const changes: unknown[] = [];
		setup.onDidChange((view) => changes.push(view));
		setNeed(undefined);
		agent.change({ problem: undefined });
		await settle();
		assert.equal(viewOfSetup(setup).keyNeeded, undefined);
		assert.equal(changes.length, 2, 'the key and the offers changed');
	});
});
