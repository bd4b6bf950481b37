import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { FakeTrust } from '../testing/fakeTrust';
import { RecordingLogger } from '../testing/recordingLogger';
import { testAgent } from '../testing/agentPorts';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { viewOfAgent } from '../testing/views';
import type { ModelSource } from './ports';
import { GatedModelSource, NetworkGate, RESTRICTED_DETAIL } from './networkGate';

/** A model source that counts what it was asked: each call stands for a network request. */
function countingSource(providerId = 'openai-compatible') {
	const provider = new ScriptedProvider({ text: 'Hello.' });
	const calls = { listModels: 0, resolve: 0 };
	const changed = new Emitter<void>();
	const source: ModelSource = {
		providerId,
		configuredModel: '',
		resolve: () => {
			calls.resolve++;
			return Promise.resolve({ provider, model: 'scripted' });
		},
		listModels: () => {
			calls.listModels++;
			return Promise.resolve({ models: [{ id: 'scripted', name: 'Scripted' }] });
		},
		selectModel: () => Promise.resolve(),
		onDidChange: changed.event,
	};
	return { source, calls, changed, provider };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Restricted Mode: the network gate', () => {
	it('in an untrusted workspace, the agent lists no models until the workspace is trusted', async () => {
		const trust = new FakeTrust(false);
		const log = new RecordingLogger();
		const gate = new NetworkGate(trust, log);
		const { source, calls, changed } = countingSource();
		const agent = testAgent(new GatedModelSource(source, gate));
		await settle();
		assert.equal(calls.listModels, 0, 'no model list at activation');
		assert.deepEqual(viewOfAgent(agent).status, { state: 'unavailable', detail: RESTRICTED_DETAIL });

		// A settings change refreshes the list: still nothing goes out.
		changed.fire();
		await settle();
		assert.equal(calls.listModels, 0, 'no model list at a refresh');

		trust.grant();
		await settle();
		assert.equal(calls.listModels, 1, 'trusting the workspace lists the models');
		assert.equal(viewOfAgent(agent).status.state, 'ready');
		assert.match(log.at('info')[0] ?? '', /the workspace is trusted now/);
	});

	it('a message the person sends is them acting: the turn runs, and the gate stays open', async () => {
		const gate = new NetworkGate(new FakeTrust(false), new RecordingLogger());
		const { source, calls, provider } = countingSource();
		const agent = testAgent(new GatedModelSource(source, gate));
		await settle();
		assert.equal(calls.listModels, 0);
		const outcome = await agent.startTurn('Hello?');
		assert.equal(outcome.outcome, 'done');
		assert.equal(calls.resolve, 1);
		assert.equal(provider.requests.length, 1);
		await settle();
		assert.equal(gate.isOpen, true);
		assert.equal(calls.listModels, 1, 'after the person acted, the picker fills');
	});

	it('lists VS Code chat models (in-process, no server) even while closed', async () => {
		const gate = new NetworkGate(new FakeTrust(false), new RecordingLogger());
		const { source, calls } = countingSource('vscode-lm');
		const agent = testAgent(new GatedModelSource(source, gate));
		await settle();
		assert.equal(calls.listModels, 1);
		assert.equal(viewOfAgent(agent).status.state, 'ready');
	});

	it('is open from the start in a trusted workspace, and opens only once', async () => {
		const log = new RecordingLogger();
		const gate = new NetworkGate(new FakeTrust(true), log);
		let opened = 0;
		gate.onDidOpen(() => opened++);
		assert.equal(gate.isOpen, true);
		gate.allow('again');
		assert.equal(opened, 0);
		assert.deepEqual(log.lines, []);
		const { source, calls } = countingSource();
		testAgent(new GatedModelSource(source, gate));
		await settle();
		assert.equal(calls.listModels, 1);
	});
});
