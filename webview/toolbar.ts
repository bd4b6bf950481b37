// The composer's toolbar: which model answers, what the agent may do without asking in this chat
// (the chat's permission mode), and a one-message override: the mode the next message runs in,
// back to "this chat's mode" once it is sent. The model and mode pickers post the person's
// choice; the host answers with agent.changed, which sets what is shown. The override stays
// here until the message goes out with it (Composer asks `takeOverride`).
import type { AgentView, PermissionMode, ViewMessage } from '../src/protocol/messages';
import { el, icon } from './dom';

const MODES: readonly { readonly mode: PermissionMode; readonly label: string; readonly title: string }[] = [
	{ mode: 'ask', label: 'Ask', title: 'Ask before every file change and every command' },
	{ mode: 'auto-edit', label: 'Auto-edit', title: 'Change files without asking; ask before every command' },
	{ mode: 'plan', label: 'Plan', title: 'Read-only: the agent can read and search but change nothing' },
	{ mode: 'full-access', label: 'Full access', title: 'Change files and run commands without asking, except what a rule or a protected path still refuses or asks for' },
];
/** The override picker's value for "no override". */
const CHAT_MODE = '';

type ToolbarMessage = Extract<ViewMessage, { type: 'model.select' | 'mode.select' }>;

function option(value: string, label: string, title?: string): HTMLOptionElement {
	return el('option', { value, title }, label);
}

export class Toolbar {
	private readonly model = el('select', { class: 'picker picker-model', 'aria-label': 'Model' });
	private readonly mode = el('select', { class: 'picker picker-mode', 'aria-label': 'Permission mode of this chat' });
	private readonly override = el('select', { class: 'picker picker-override', 'aria-label': 'Permission mode for the next message only' });
	readonly element = el(
		'div',
		{ class: 'composer-toolbar', role: 'group', 'aria-label': 'Agent settings' },
		el('label', { class: 'picker-wrap', title: 'Model' }, icon('sparkle'), this.model),
		el('label', { class: 'picker-wrap', title: 'Permission mode of this chat' }, icon('shield'), this.mode),
		el('label', { class: 'picker-wrap', title: 'Permission mode for the next message only' }, icon('arrow-right'), this.override),
	);
	private modelKey = '';
	private chatMode: PermissionMode = 'ask';

	constructor(post: (message: ToolbarMessage) => void) {
		this.mode.append(...MODES.map((m) => option(m.mode, m.label, m.title)));
		this.override.append(option(CHAT_MODE, 'This message: chat\'s mode'), ...MODES.map((m) => option(m.mode, `This message: ${m.label}`, `This message only: ${m.title}`)));
		this.override.addEventListener('change', () => {
			this.showOverride();
		});
		this.model.addEventListener('change', () => {
			post({ type: 'model.select', model: this.model.value });
		});
		this.mode.addEventListener('change', () => {
			const mode = MODES.find((m) => m.mode === this.mode.value)?.mode;
			if (mode) {
				post({ type: 'mode.select', mode });
			}
		});
	}

	update(agent: AgentView): void {
		this.showModels(agent);
		this.chatMode = agent.mode;
		this.mode.value = agent.mode;
		this.mode.title = MODES.find((m) => m.mode === agent.mode)?.title ?? '';
		// A message sent while the agent works joins its turn, in that turn's mode: no override then.
		this.override.disabled = agent.status.state === 'running';
		this.showOverride();
	}

	/** The override for the message being sent, if one is chosen (and not the chat's own mode); the picker goes back to the chat's mode. */
	takeOverride(): PermissionMode | undefined {
		const chosen = this.override.disabled ? undefined : MODES.find((m) => m.mode === this.override.value)?.mode;
		this.override.value = CHAT_MODE;
		this.showOverride();
		return chosen === this.chatMode ? undefined : chosen;
	}

	private showOverride(): void {
		const chosen = MODES.find((m) => m.mode === this.override.value);
		this.override.classList.toggle('picker-active', chosen !== undefined);
		this.override.title = chosen ? `The next message runs in ${chosen.label} (${chosen.title}); then the chat's mode again` : `The next message runs in this chat's mode (${this.chatMode})`;
	}

	private showModels(agent: AgentView): void {
		const models = agent.models.some((m) => m.id === agent.model) || agent.model === '' ? agent.models : [{ id: agent.model, name: agent.model }, ...agent.models];
		// Rebuilt only when the list changes, so an open or focused picker is left alone.
		const key = JSON.stringify(models);
		if (key !== this.modelKey) {
			this.modelKey = key;
			this.model.replaceChildren(...(models.length ? models.map((m) => option(m.id, m.name || m.id, m.id)) : [option('', 'No model available')]));
		}
		this.model.disabled = agent.models.length === 0;
		this.model.value = agent.model;
		if (this.model.selectedIndex === -1) {
			// No model set means the provider's first one.
			this.model.selectedIndex = 0;
		}
		this.model.title = agent.model ? `${agent.provider}: ${agent.model}` : 'No model available';
	}
}
