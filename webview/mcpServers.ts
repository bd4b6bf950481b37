// The MCP server list (docs/mcp.md, "The server list"): a button in the header, only while servers
// are configured, opens a panel under it listing each server with its state, its tool count, what
// its tools' specs cost a request, a failed one's last stderr lines, and Restart, Show output and
// Disable / Enable. The host sends the whole list on every change (`mcp.servers`); the focus stays
// on the button it was on. Names, messages and stderr are anything: they only go in as text.
import type { HostMessage, ViewMessage } from '../src/protocol/messages';
import type { McpServerState, McpServersView, McpServerView } from '../src/protocol/mcp';
import type { ViewFeaturePart } from './featurePart';
import { el, icon, uniqueId } from './dom';
import { tokens } from './contextDetails';

type McpMessage = Extract<ViewMessage, { type: 'mcp.restart' | 'mcp.showOutput' | 'mcp.setDisabled' | 'mcp.signIn' | 'mcp.signOut' }>;

/** Each state's icon and word; a state without a row does not compile. */
const STATES: Readonly<Record<McpServerState, { readonly icon: string; readonly label: string }>> = {
	connected: { icon: 'pass', label: 'Connected' },
	starting: { icon: 'loading', label: 'Starting' },
	reconnecting: { icon: 'sync', label: 'Reconnecting' },
	failed: { icon: 'error', label: 'Failed' },
	'needs-sign-in': { icon: 'account', label: 'Needs sign-in' },
	stopped: { icon: 'circle-outline', label: 'Not started' },
	declined: { icon: 'shield', label: 'Not approved' },
	disabled: { icon: 'circle-slash', label: 'Disabled' },
};

/** The states whose words say more than the label: why it failed, what reconnects, what approval is. */
const EXPLAINED: ReadonlySet<McpServerState> = new Set(['failed', 'reconnecting', 'needs-sign-in', 'declined']);

/** The header button's name: the servers and how many need attention. */
export function summaryText(view: McpServersView): string {
	if (!view.trusted) {
		return 'MCP servers: not running in Restricted Mode';
	}
	const connected = view.servers.filter((server) => server.state === 'connected').length;
	const failed = view.servers.filter((server) => server.state === 'failed').length;
	const signIn = view.servers.filter((server) => server.state === 'needs-sign-in').length;
	const needs = signIn > 0 ? `, ${signIn} ${signIn === 1 ? 'needs' : 'need'} sign-in` : '';
	return `MCP servers: ${connected} of ${view.servers.length} connected${failed > 0 ? `, ${failed} failed` : ''}${needs}`;
}

/** What a server's tools cost, in words: "12 tools · ~3.4k tokens a request". */
export function costText(server: McpServerView, deferred: boolean): string {
	if (server.state !== 'connected') {
		return '';
	}
	const count = `${server.toolCount} ${server.toolCount === 1 ? 'tool' : 'tools'}`;
	if (server.toolCount === 0) {
		return count;
	}
	return deferred ? `${count} · ~${tokens(server.specTokens)} tokens, deferred (not sent with each request)` : `${count} · ~${tokens(server.specTokens)} tokens a request`;
}

export class McpServerList implements ViewFeaturePart {
	readonly id = 'mcp';
	readonly toggle = el('button', { type: 'button', class: 'icon-button mcp-servers-toggle', 'aria-label': 'MCP servers', hidden: true }, icon('server'));
	private readonly mark = el('span', { class: 'mcp-servers-mark', hidden: true }, icon('warning'));
	private readonly note = el('p', { class: 'mcp-servers-note', hidden: true });
	private readonly problems = el('ul', { class: 'mcp-servers-problems', hidden: true });
	private readonly list = el('ul', { class: 'mcp-servers-list' });
	readonly panel = el('section', { class: 'mcp-servers', id: uniqueId('mcp-servers'), 'aria-label': 'MCP servers', hidden: true },
		el('h2', { class: 'mcp-servers-title' }, 'MCP servers'), this.note, this.problems, this.list);
	private view: McpServersView = { trusted: true, servers: [], problems: [] };

	constructor(private readonly post: (message: McpMessage) => void) {
		this.toggle.append(this.mark);
		this.toggle.setAttribute('aria-expanded', 'false');
		this.toggle.setAttribute('aria-controls', this.panel.id);
		this.toggle.addEventListener('click', () => {
			this.setOpen(this.panel.hidden);
		});
		for (const target of [this.toggle, this.panel]) {
			target.addEventListener('keydown', (event) => {
				if (event.key === 'Escape' && !this.panel.hidden) {
					// The chat's own Escape (Stop) must not see it.
					event.preventDefault();
					event.stopPropagation();
					this.setOpen(false);
					this.toggle.focus();
				}
			});
		}
	}

	get headerActions(): readonly HTMLElement[] {
		return [this.toggle];
	}

	get top(): HTMLElement {
		return this.panel;
	}

	receive(message: HostMessage): void {
		if (message.type === 'mcp.servers') {
			this.update(message.view);
		}
	}

	private setOpen(open: boolean): void {
		this.panel.hidden = !open;
		this.toggle.setAttribute('aria-expanded', String(open));
	}

	private update(view: McpServersView): void {
		this.view = view;
		const configured = view.servers.length > 0 || view.problems.length > 0;
		this.toggle.hidden = !configured;
		if (!configured) {
			this.setOpen(false);
		}
		const summary = summaryText(view);
		this.toggle.setAttribute('aria-label', summary);
		this.toggle.title = summary;
		this.mark.hidden = !view.trusted || !view.servers.some((server) => server.state === 'failed' || server.state === 'needs-sign-in') && view.problems.length === 0;
		const notes = [
			view.trusted ? undefined : 'MCP does not run here: in Restricted Mode no MCP server starts. Trust this workspace to start them.',
			view.trusted && view.deferred ? `The tools are deferred: the model gets McpDescribe and McpCall instead of their specs, because ${view.deferred}.` : undefined,
		].filter((line) => line !== undefined);
		this.note.textContent = notes.join(' ');
		this.note.hidden = notes.length === 0;
		this.problems.replaceChildren(...view.problems.map((problem) => el('li', {}, icon('warning'), ' ', problem)));
		this.problems.hidden = view.problems.length === 0;
		// A new list replaces the old: the focus goes back to the same button of the same server.
		const focused = document.activeElement instanceof HTMLElement && this.list.contains(document.activeElement) ? document.activeElement : undefined;
		const key = focused ? [focused.dataset.server, focused.dataset.action] : undefined;
		this.list.replaceChildren(...view.servers.map((server) => this.row(server)));
		if (key) {
			const again = [...this.list.querySelectorAll<HTMLElement>('[data-action]')].find((node) => node.dataset.server === key[0] && node.dataset.action === key[1]);
			(again ?? this.toggle).focus();
		}
	}

	private row(server: McpServerView): HTMLLIElement {
		const state = STATES[server.state];
		const cost = costText(server, this.view.deferred !== undefined);
		const explained = EXPLAINED.has(server.state);
		return el('li', { class: `mcp-server mcp-server-${server.state}` },
			el('div', { class: 'mcp-server-head' },
				icon(state.icon, `mcp-server-icon${server.state === 'starting' ? ' codicon-modifier-spin' : ''}`),
				el('span', { class: 'mcp-server-name', title: server.name }, server.name),
				el('span', { class: 'mcp-server-state' }, state.label)),
			cost === '' ? null : el('div', { class: 'mcp-server-cost' }, cost),
			explained ? el('div', { class: 'mcp-server-words' }, server.words) : null,
			server.stderr === undefined ? null : el('pre', { class: 'mcp-server-stderr', 'aria-label': `Last stderr lines of ${server.name}` }, server.stderr),
			el('div', { class: 'mcp-server-origin' }, `Configured in ${server.origin}`),
			el('div', { class: 'mcp-server-actions' }, ...this.actions(server)));
	}

	private actions(server: McpServerView): HTMLButtonElement[] {
		const button = (action: string, label: string, name: string, codicon: string, run: (() => void) | undefined, why?: string): HTMLButtonElement => {
			const node = el('button', { type: 'button', class: 'button-secondary mcp-server-action', 'data-server': server.name, 'data-action': action, 'aria-label': name, title: why ?? name },
				icon(codicon), label);
			if (run) {
				node.addEventListener('click', run);
			} else {
				// Focusable still, so the reason in its name can be read by keyboard too.
				node.setAttribute('aria-disabled', 'true');
			}
			return node;
		};
		const buttons: HTMLButtonElement[] = [];
		// Sign in opens the browser: only ever on this click, never when a chat starts.
		if (this.view.trusted && server.state === 'needs-sign-in') {
			const signIn = button('sign-in', 'Sign in', `Sign in to ${server.name}`, 'sign-in', () => {
				this.post({ type: 'mcp.signIn', server: server.name });
			});
			signIn.classList.replace('button-secondary', 'button-primary');
			buttons.push(signIn);
		}
		// A workspace server the person did not approve: starting it asks for their approval again.
		if (this.view.trusted && server.state === 'declined') {
			buttons.push(button('approve', 'Approve…', `Approve ${server.name}…`, 'shield', () => {
				this.post({ type: 'mcp.restart', server: server.name });
			}, `Asks you again whether to start ${server.name}, a server of ${server.origin}`));
		} else if (this.view.trusted && server.state !== 'disabled') {
			buttons.push(button('restart', 'Restart', `Restart ${server.name}`, 'debug-restart', () => {
				this.post({ type: 'mcp.restart', server: server.name });
			}));
		}
		if (server.signedIn === true) {
			buttons.push(button('sign-out', 'Sign out', `Sign out of ${server.name}`, 'sign-out', () => {
				this.post({ type: 'mcp.signOut', server: server.name });
			}));
		}
		buttons.push(button('output', 'Output', `Show output of ${server.name}`, 'output', () => {
			this.post({ type: 'mcp.showOutput', server: server.name });
		}));
		const disabled = server.state === 'disabled';
		const verb = disabled ? 'Enable' : 'Disable';
		if (server.user) {
			buttons.push(button('toggle', verb, `${verb} ${server.name}`, disabled ? 'play' : 'circle-slash', () => {
				this.post({ type: 'mcp.setDisabled', server: server.name, disabled: !disabled });
			}));
		} else {
			const why = `${verb} ${server.name}: configured in ${server.origin}, so only that file can ${verb.toLowerCase()} it (set "disabled" in its entry there).`;
			buttons.push(button('toggle', verb, why, disabled ? 'play' : 'circle-slash', undefined, why));
		}
		return buttons;
	}
}
