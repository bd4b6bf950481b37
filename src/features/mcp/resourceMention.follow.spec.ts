// What follows an `@mcp:` mention, over the real servers of src/testing/mcpMentionServers.ts: the
// composer's `@mcp:` list of the servers' resources, and a mentioned resource followed once the
// request carrying it went out, its updates reaching the model, and again in a reopened chat.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { before, describe, it } from 'node:test';
import '../../testing/chatFeatures';
import { ChatSession } from '../../agent/session';
import type { McpServers } from '../../mcp/servers';
import { mentionAttachments } from '../../mentions/expand';
import { windowMentionKinds } from '../../mentions/kinds';
import { DEFAULT_REMINDERS } from '../../reminders/builtin/defaults';
import { DEFAULT_REMINDER_CONFIG } from '../../reminders/config';
import { parseReminders } from '../../reminders/envelope';
import { ProviderError } from '../../providers/provider';
import { FakeClock, SequentialIds } from '../../testing/fakeClock';
import { userText } from '../../testing/history';
import { ARCHITECTURE, DOCS, everything, FEATURES, gateOf, mentionServers, portsOf, signal } from '../../testing/mcpMentionServers';
import { RecordingLogger } from '../../testing/recordingLogger';
import { ScriptedProvider } from '../../testing/scriptedProvider';
import { lastText, turnHarness } from '../../testing/turnHarness';
import { ChatMcp } from './chatMcp';
import { MCP_RESOURCE_MENTION } from './resourceMention';

const { serversOf, configured } = mentionServers();
let shared: McpServers;

before(() => {
	shared = serversOf(configured());
});

describe('the composer\'s @mcp: list', () => {
	const offers = (servers: McpServers, query: string, trusted = true) => {
		const [kind] = windowMentionKinds([MCP_RESOURCE_MENTION], { mcp: servers, mcpGate: gateOf(servers, trusted) });
		return kind?.source.offers?.(query, signal()) ?? Promise.resolve([]);
	};

	it('offers the connected servers\' resources with their names, the best match first, each inserting the mention that parses back to it', async () => {
		const all = await offers(shared, 'mcp:');
		const documents = readdirSync(DOCS).filter((name) => name.endsWith('.md'));
		assert.ok(documents.includes('architecture.md'));
		for (const name of documents) {
			const offer = all.find((candidate) => candidate.label === `mcp:everything/demo://resource/static/document/${name}`);
			assert.ok(offer, `${name} is offered (offered: ${all.map((candidate) => candidate.label).join(', ')})`);
			assert.equal(offer.insert, `@mcp:everything/demo://resource/static/document/${name}`);
			assert.equal(offer.detail, `${name} (text/markdown)`);
		}
		assert.ok(all.some((offer) => offer.insert === '@mcp:"raw/raw://notes/a b.md"'), 'a URI with a space is quoted');
		const [best] = await offers(shared, 'mcp:everything/archi');
		assert.equal(best?.insert, `@mcp:everything/${ARCHITECTURE}`);
		assert.deepEqual(await offers(shared, 'mcp:zzzqqq'), [], 'nothing matches: nothing offered');
	});

	it('offers `@mcp:` itself while the `@` word could still become it; says so instead when nothing can be offered', async () => {
		assert.deepEqual(await offers(shared, 'mc'), [{ insert: '@mcp:', label: '@mcp:', detail: 'a resource of an MCP server', partial: true }]);
		assert.deepEqual(await offers(serversOf({}), ''), [], 'no server configured: not even the prefix');
		const untrusted = serversOf(configured());
		assert.deepEqual((await offers(untrusted, 'mcp:', false)).map((offer) => [offer.label, offer.inert]), [['MCP servers do not run here', true]]);
		assert.deepEqual(await offers(untrusted, 'mcp:every', false), []);
		assert.equal(untrusted.isStarted, false);
		const resourceless = serversOf({ off: { ...everything, disabled: true } });
		assert.deepEqual((await offers(resourceless, 'mcp:')).map((offer) => [offer.label, offer.inert]), [['No MCP resources', true]]);
	});
});

describe('a mentioned resource is followed', () => {
	/** Asks server-everything to send an update of every resource subscribed on this connection (at once, then every 5 s until asked again). */
	const toggleUpdates = (servers: McpServers) => servers.call('everything', 'toggle-subscriber-updates', {}, { signal: signal(), timeoutMs: 20_000 });

	/** The chat's MCP state over `servers`, recording the resources it asks updates of. */
	function watched(servers: McpServers, session: ChatSession) {
		const subscribed: string[] = [];
		const observed = Object.create(servers) as McpServers;
		observed.subscribe = (server, uri) => {
			subscribed.push(`${server} ${uri}`);
			return servers.subscribe(server, uri);
		};
		return { state: new ChatMcp(session, observed, new FakeClock()), subscribed };
	}

	it('once the request carrying it went out (not when it failed before): then its updates reach the model as mcp.resources-updated; a reopened chat follows it again', async () => {
		const servers = serversOf({ everything });
		const provider = new ScriptedProvider({ failBefore: new ProviderError('auth', 'The key was refused.', { status: 401 }) }, { text: 'Read.' }, { text: 'Noted.' });
		const holder: { session?: ChatSession } = {};
		const made = turnHarness(provider, { attachments: mentionAttachments(portsOf(servers, { records: () => holder.session?.selectedRecords ?? [] })) });
		holder.session = made.session;
		const { state, subscribed } = watched(servers, made.session);
		const mention = `What does @mcp:everything/${FEATURES} say?`;
		assert.equal((await made.turn('turn-1').run(mention, signal())).outcome, 'failed');
		assert.deepEqual(subscribed, [], 'a request that never went out gave the model nothing');
		assert.equal((await made.turn('turn-2').run(mention, signal())).outcome, 'done');
		const sent = parseReminders(lastText(provider.requests[1]?.messages ?? [])).filter((block) => block.key === 'mention.mcp-resource');
		assert.equal(sent.length, 1);
		assert.match(sent[0]?.body ?? '', /Its contents, as of this message:/);
		assert.deepEqual(subscribed, [`everything ${FEATURES}`], 'followed once dispatched');
		const updated = new Promise<void>((resolve) => {
			servers.onDidChange((change) => {
				if (change.kind === 'server' && change.event.kind === 'resource-updated' && change.event.uri === FEATURES) {
					resolve();
				}
			});
		});
		await toggleUpdates(servers);
		await updated;
		await toggleUpdates(servers);
		assert.equal((await made.turn('turn-3').run('Anything new?', signal())).outcome, 'done');
		const news = parseReminders(lastText(provider.requests[2]?.messages ?? [])).find((block) => block.key === 'mcp.resources-updated');
		assert.match(news?.body ?? '', new RegExp(`- everything: ${FEATURES.replace(/[./]/gu, '\\$&')} — updated (once|\\d+ times), last at \\d\\d:\\d\\d:\\d\\d UTC`, 'u'));
		state.dispose();

		// The window reloaded: new servers, the chat reopened from its records.
		const later = serversOf({ everything });
		const env = { clock: new FakeClock(), ids: new SequentialIds('r'), log: new RecordingLogger(), reminderConfig: DEFAULT_REMINDER_CONFIG, reminderDefaults: () => DEFAULT_REMINDERS };
		const reopened = new ChatSession('s1', made.store, env, [...made.store.records]);
		const again = watched(later, reopened);
		await later.ready(signal());
		const updatedAgain = new Promise<void>((resolve) => {
			later.onDidChange((change) => {
				if (change.kind === 'server' && change.event.kind === 'resource-updated' && change.event.uri === FEATURES) {
					resolve();
				}
			});
		});
		await toggleUpdates(later);
		await updatedAgain;
		await toggleUpdates(later);
		const owner = reopened.reminders.beginUserTurn('turn-9');
		const injection = reopened.reminders.wait({ requestId: 'r9', owner, phase: 'turn-start', messages: [userText('go')] }, undefined);
		const resent = injection.record?.entries.find((entry) => entry.key === 'mcp.resources-updated');
		assert.match(resent?.body ?? '', new RegExp(`- everything: ${FEATURES.replace(/[./]/gu, '\\$&')} — updated`, 'u'), 'the new connection was asked for its updates');
		assert.ok(again.subscribed.includes(`everything ${FEATURES}`));
		again.state.dispose();
	});
});
