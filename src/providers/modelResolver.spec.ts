import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ScriptedProvider } from '../testing/scriptedProvider';
import { offerModels, resolveModel, type ModelCatalog } from './modelResolver';
import type { ChatProvider, ModelInfo } from './provider';

const signal = new AbortController().signal;
const LISTED: readonly ModelInfo[] = [
	{ id: 'small', name: 'Small', contextWindow: 8000 },
	{ id: 'large', name: 'Large' },
];

/** An HTTP provider's catalog: one provider for any model; counts how often the list was asked for. */
function http(models: readonly ModelInfo[] = LISTED): ModelCatalog & { readonly listed: () => number } {
	let listed = 0;
	return {
		providerId: 'openai-compatible',
		provider: new ScriptedProvider(),
		hint: 'Check the server.',
		list: () => {
			listed++;
			return Promise.resolve(models);
		},
		listed: () => listed,
	};
}

/** VS Code's chat models: a provider of its own for each. */
function perModel(models: readonly ModelInfo[] = LISTED): ModelCatalog & { readonly made: Map<string, ChatProvider> } {
	const made = new Map<string, ChatProvider>();
	return {
		providerId: 'vscode-lm',
		provider: new ScriptedProvider(),
		hint: 'Install a chat model extension.',
		list: () => Promise.resolve(models),
		providerFor: (model) => {
			const provider = new ScriptedProvider();
			made.set(model, provider);
			return Promise.resolve(provider);
		},
		made,
	};
}

describe('resolveModel: the model a request goes to', () => {
	it('asks an HTTP provider for the configured model as it is, without listing', async () => {
		const catalog = http();
		assert.deepEqual(await resolveModel(catalog, 'unlisted-but-served', signal), { provider: catalog.provider, model: 'unlisted-but-served' });
		assert.equal(catalog.listed(), 0);
	});

	it('takes the first model offered when none is configured, with the window the list gave', async () => {
		const catalog = http();
		assert.deepEqual(await resolveModel(catalog, '', signal), { provider: catalog.provider, model: 'small', contextWindow: 8000 });
		const second = http([{ id: 'only', name: 'Only' }]);
		assert.deepEqual(await resolveModel(second, '', signal), { provider: second.provider, model: 'only' });
	});

	it("chooses VS Code's chat model from the list, configured or first, each with its own provider", async () => {
		const catalog = perModel();
		const configured = await resolveModel(catalog, 'large', signal);
		assert.equal(configured.model, 'large');
		assert.equal(configured.provider, catalog.made.get('large'));
		assert.notEqual(configured.provider, catalog.provider);
		const first = await resolveModel(catalog, '', signal);
		assert.deepEqual(first, { provider: catalog.made.get('small'), model: 'small', contextWindow: 8000 });
	});

	it('says what to change when nothing is offered, or the configured chat model is not', async () => {
		await assert.rejects(resolveModel(http([]), '', signal), { message: 'The openai-compatible provider offers no models. Check the server.' });
		await assert.rejects(resolveModel(perModel([]), '', signal), { message: 'The vscode-lm provider offers no models. Install a chat model extension.' });
		await assert.rejects(resolveModel(perModel(), 'gone', signal), {
			message: 'The model "gone" is not offered by the vscode-lm provider; pick one in the chat view or change aside.model.',
		});
	});

	it('passes on what the list or the provider threw', async () => {
		const failing: ModelCatalog = { ...http(), list: () => Promise.reject(new Error('HTTP 401 from the model server')) };
		await assert.rejects(resolveModel(failing, '', signal), /HTTP 401/);
		const gone: ModelCatalog = { ...perModel(), providerFor: () => Promise.reject(new Error('went away')) };
		await assert.rejects(resolveModel(gone, 'small', signal), /went away/);
	});
});

describe('offerModels: what the picker offers', () => {
	it('lists the models, with the model a request would use now', async () => {
		assert.deepEqual(await offerModels(http(), '', signal), { models: LISTED, model: 'small' });
		assert.deepEqual(await offerModels(http(), 'configured', signal), { models: LISTED, model: 'configured' });
	});

	it('says why the list is empty, keeping a configured model', async () => {
		assert.deepEqual(await offerModels(http([]), '', signal), { models: [], problem: 'The openai-compatible provider offers no models. Check the server.' });
		assert.deepEqual(await offerModels(perModel([]), 'x', signal), { models: [], problem: 'The vscode-lm provider offers no models. Install a chat model extension.', model: 'x' });
	});
});
