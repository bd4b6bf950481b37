// The composer's toolbar: which model answers, what the agent may do without asking in this chat
// (the chat's permission mode), and a one-message override: the mode the next message runs in,
// back to "this chat's mode" once it is sent. The model and mode pickers post the person's
// choice; the host answers with agent.changed, which sets what is shown. The override stays
// here until the message goes out with it (Composer asks `takeOverride`). At a sidebar's 300 px
// the three share one row: the override is an icon until one is chosen, then the icon and the
// mode's short name ("Plan"); its native select lies over them, unseen, so the keyboard, the
// list and screen readers get a real select. Full access, as the chat's mode or the override,
// shows in the warning colours.
import type { AgentView, PermissionMode, ViewMessage } from '../src/protocol/messages';
import { el, icon } from './dom';

const MODES: readonly { readonly mode: PermissionMode; readonly label: string; readonly title: string }[] = [
	{ mode: 'ask', label: 'Ask', title: 'Ask before every file change and every command' },
	{ mode: 'auto-edit', label: 'Auto-edit', title: 'Change files without asking; ask before every command' },
	{ mode: 'plan', label: 'Plan', title: 'Read-only: the agent can read and search but change nothing' },
	{ mode: 'full-access', label: 'Full access', title: 'Change files and run commands without asking, except what a rule or a protected path still refuses or asks for' },
];
/** A mode's name as the toolbar shows it. */
export function modeLabel(mode: PermissionMode): string {
	return MODES.find((candidate) => candidate.mode === mode)?.label ?? mode;
}

/** The override picker's value for "no override". */
const CHAT_MODE = '';
const OVERRIDE_NAME = 'Permission mode for the next message only';

type ToolbarMessage = Extract<ViewMessage, { type: 'model.select' | 'mode.select' }>;

function option(value: string, label: string, title?: string): HTMLOptionElement {
	return el('option', { value, title }, label);
}

export class Toolbar {
	private readonly model = el('select', { class: 'picker picker-model', 'aria-label': 'Model' });
	private readonly mode = el('select', { class: 'picker picker-mode', 'aria-label': 'Permission mode of this chat' });
	private readonly modeIcon = icon('shield');
	private readonly modeWrap = el('label', { class: 'picker-wrap picker-wrap-mode', title: 'Permission mode of this chat' }, this.modeIcon, this.mode);
	private readonly override = el('select', { class: 'picker picker-override', 'aria-label': OVERRIDE_NAME });
	/** What the override shows of its choice: nothing for the chat's mode, else the mode's name. */
	private readonly overrideLabel = el('span', { class: 'picker-label', 'aria-hidden': 'true', hidden: true });
	private readonly overrideWrap = el('label', { class: 'picker-wrap picker-wrap-override', title: OVERRIDE_NAME }, icon('arrow-right'), this.overrideLabel, this.override);
	readonly element = el(
		'div',
		{ class: 'composer-toolbar', role: 'group', 'aria-label': 'Agent settings' },
		el('label', { class: 'picker-wrap picker-wrap-model', title: 'Model' }, icon('sparkle'), this.model),
		this.modeWrap,
		this.overrideWrap,
	);
	private modelKey = '';
	private chatMode: PermissionMode = 'ask';

	constructor(post: (message: ToolbarMessage) => void) {
		this.mode.append(...MODES.map((m) => option(m.mode, m.label, m.title)));
		this.override.append(option(CHAT_MODE, 'Next message: this chat\'s mode'), ...MODES.map((m) => option(m.mode, `Next message: ${m.label}`, `This message only: ${m.title}`)));
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
		const full = agent.mode === 'full-access';
		this.mode.title = MODES.find((m) => m.mode === agent.mode)?.title ?? '';
		this.modeWrap.classList.toggle('picker-warning', full);
		this.modeIcon.classList.toggle('codicon-shield', !full);
		this.modeIcon.classList.toggle('codicon-warning', full);
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
		this.overrideWrap.classList.toggle('picker-active', chosen !== undefined);
		this.overrideWrap.classList.toggle('picker-warning', chosen?.mode === 'full-access');
		this.overrideWrap.classList.toggle('picker-disabled', this.override.disabled);
		this.overrideLabel.hidden = chosen === undefined;
		this.overrideLabel.textContent = chosen?.label ?? '';
		const chatMode = MODES.find((m) => m.mode === this.chatMode)?.label ?? this.chatMode;
		const title = chosen ? `The next message runs in ${chosen.label} (${chosen.title}); then the chat's mode again` : `${OVERRIDE_NAME}: now the chat's mode (${chatMode})`;
		this.override.title = title;
		this.overrideWrap.title = title;
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
