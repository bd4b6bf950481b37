// The slash-command registry with commands that come and go: a source's commands join the built-in
// ones, the composer is told the whole list at every change, a built-in name is never taken, and a
// command that left is a message again.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Emitter } from '../base/event';
import { PROTOCOL_VERSION } from '../protocol/messages';
import { RecordingLogger } from '../testing/recordingLogger';
import { testConnection } from '../testing/viewConnection';
import type { FeatureViewPart } from './featureView';
import { type CommandPort, type SlashCommand, SlashCommands, type SlashCommandSource } from './slashCommands';

class Source implements SlashCommandSource {
	private readonly changed = new Emitter<void>();
	readonly onDidChange = this.changed.event;
	commands: SlashCommand[] = [];
	readonly ran: string[] = [];

	current(): readonly SlashCommand[] {
		return this.commands;
	}

	set(names: readonly string[]): void {
		this.commands = names.map((name) => ({
			name,
			args: '<what>',
			summary: `the source's ${name}`,
			arguments: [{ name: 'what', required: true }],
			run: (text) => {
				this.ran.push(text);
			},
			complete: (_argument, value) => Promise.resolve([`${value}1`, `${value}2`]),
		}));
		this.changed.fire();
	}
}

const builtIn = (name: string, ran: string[]): SlashCommand => ({
	name,
	args: '',
	summary: `built-in ${name}`,
	run: (text) => {
		ran.push(text);
	},
});

const port: CommandPort = { send: () => undefined, notice: () => undefined, submit: () => undefined };

describe('the slash-command registry', () => {
	it('holds a source\'s commands beside the built-in ones, tells each change, and never lets one take a built-in\'s name', () => {
		const ran: string[] = [];
		const source = new Source();
		const log = new RecordingLogger();
		const registry = new SlashCommands([builtIn('/compact', ran)], [source], log);
		const told: string[][] = [];
		registry.onDidChange((views) => told.push(views.map((view) => view.name)));
		source.set(['/compact', '/mcp.docs.ask', '/mcp.docs.ask', '/Bad Name', '/mcp.docs.draft']);
		assert.deepEqual(told, [['/compact', '/mcp.docs.ask', '/mcp.docs.draft']]);
		assert.match(log.lines.map((line) => line.message).join('\n'), /The slash command \/compact is left out: another command has that name\./);
		assert.match(log.lines.map((line) => line.message).join('\n'), /"\/Bad Name" is left out/);
		assert.equal(registry.run('/compact now', port), true);
		assert.deepEqual(ran, ['/compact now'], 'the built-in one ran');
		assert.equal(registry.run('/mcp.docs.ask  the question ', port), true);
		assert.deepEqual(source.ran, ['/mcp.docs.ask  the question']);
		assert.deepEqual(registry.views()[1], { name: '/mcp.docs.ask', args: '<what>', summary: 'the source\'s /mcp.docs.ask', arguments: [{ name: 'what', required: true }], completes: true });

		source.set(['/mcp.docs.draft']);
		assert.deepEqual(told.at(-1), ['/compact', '/mcp.docs.draft']);
		assert.equal(registry.run('/mcp.docs.ask again', port), false, 'gone: a message like any other');
	});

	it('asks a command for an argument\'s values; a command gone or an argument it does not declare gets none', async () => {
		const source = new Source();
		const registry = new SlashCommands([], [source]);
		source.set(['/mcp.docs.ask']);
		const signal = new AbortController().signal;
		assert.deepEqual(await registry.complete('/mcp.docs.ask', 'what', 'x', {}, signal), ['x1', 'x2']);
		assert.deepEqual(await registry.complete('/mcp.docs.ask', 'other', 'x', {}, signal), []);
		assert.deepEqual(await registry.complete('/mcp.docs.gone', 'what', 'x', {}, signal), []);
	});

	it('in the view connection: the snapshot holds the source\'s commands and each change is sent whole', () => {
		const source = new Source();
		source.set(['/mcp.docs.ask']);
		const part: FeatureViewPart = { id: 'docs', commandSource: source, connect: () => ({ dispose: () => undefined }) };
		const { connection, posted } = testConnection({ features: () => [part] });
		connection.receive({ type: 'ready', protocol: PROTOCOL_VERSION, reason: 'load' });
		const snapshot = posted.find((message) => message.type === 'snapshot');
		assert.deepEqual(snapshot?.type === 'snapshot' ? snapshot.state.commands.map((command) => command.name).filter((name) => name.startsWith('/mcp.')) : [], ['/mcp.docs.ask']);
		source.set(['/mcp.docs.ask', '/mcp.docs.draft']);
		const changed = posted.findLast((message) => message.type === 'commands.changed');
		assert.deepEqual(changed?.type === 'commands.changed' ? changed.commands.map((command) => command.name).filter((name) => name.startsWith('/mcp.')) : [], ['/mcp.docs.ask', '/mcp.docs.draft']);
		connection.dispose();
	});
});
