import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../base/event';
import type { SetupView } from '../protocol/messages';
import type { DetectedServer } from '../providers/localServers';
import { SetupPresenter, setupView, type ViewedSetup } from './setupView';

const OLLAMA: DetectedServer = { id: 'ollama', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: 3 };

describe('the first-run setup as the empty state shows it', () => {
	it('offers found servers by name and a missing key by provider and origin', () => {
		assert.deepEqual(setupView({ detected: [], keyNeeded: undefined }), { detected: [] });
		assert.deepEqual(setupView({ detected: [OLLAMA], keyNeeded: { provider: 'anthropic', label: 'Anthropic', origin: 'http://127.0.0.1:4000' } }), {
			detected: [{ id: 'ollama', label: 'Use Ollama on localhost:11434 (3 models)' }],
			keyNeeded: { provider: 'Anthropic', origin: 'http://127.0.0.1:4000' },
		});
	});

	it('presents the setup: its offers as they change, the buttons passed on', () => {
		const calls: string[] = [];
		const changed = new Emitter<void>();
		let detected: readonly DetectedServer[] = [];
		const setup: ViewedSetup = {
			get detected() {
				return detected;
			},
			keyNeeded: undefined,
			onDidChange: changed.event,
			viewShown: () => calls.push('shown'),
			chooseProvider: () => calls.push('choose'),
			useDetected: (id) => calls.push(`use ${id}`),
			storeKey: () => calls.push('key'),
		};
		const presenter = new SetupPresenter(setup);
		const views: SetupView[] = [];
		presenter.onDidChange((view) => views.push(view));
		assert.deepEqual(presenter.view(), { detected: [] });
		detected = [OLLAMA];
		changed.fire();
		assert.deepEqual(views, [{ detected: [{ id: 'ollama', label: 'Use Ollama on localhost:11434 (3 models)' }] }]);
		presenter.viewShown();
		presenter.chooseProvider();
		presenter.useDetected('ollama');
		presenter.storeKey();
		assert.deepEqual(calls, ['shown', 'choose', 'use ollama', 'key']);
	});
});
