// The composer's toolbar: which model answers and what the agent may do without asking. Both
// post the person's choice; the host answers with agent.changed, which sets what is shown.
import type { AgentView, PermissionMode, ViewMessage } from '../src/protocol/messages';
import { el, icon } from './dom';

const MODES: readonly { readonly mode: PermissionMode; readonly label: string; readonly title: string }[] = [
	{ mode: 'ask', label: 'Ask', title: 'Ask before every file change and every command' },
	{ mode: 'auto-edit', label: 'Auto-edit', title: 'Change files without asking; ask before every command' },
	{ mode: 'plan', label: 'Plan', title: 'Read-only: the agent can read and search but change nothing' },
];

type ToolbarMessage = Extract<ViewMessage, { type: 'model.select' | 'mode.select' }>;

function option(value: string, label: string, title?: string): HTMLOptionElement {
	return el('option', { value, title }, label);
}

export class Toolbar {
	private readonly model = el('select', { class: 'picker picker-model', 'aria-label': 'Model' });
	private readonly mode = el('select', { class: 'picker picker-mode', 'aria-label': 'Permission mode' });
	readonly element = el(
		'div',
		{ class: 'composer-toolbar', role: 'group', 'aria-label': 'Agent settings' },
		el('label', { class: 'picker-wrap', title: 'Model' }, icon('sparkle'), this.model),
		el('label', { class: 'picker-wrap', title: 'Permission mode' }, icon('shield'), this.mode),
	);
	private modelKey = '';

	constructor(post: (message: ToolbarMessage) => void) {
		this.mode.append(...MODES.map((m) => option(m.mode, m.label, m.title)));
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
		this.mode.value = agent.mode;
		this.mode.title = MODES.find((m) => m.mode === agent.mode)?.title ?? '';
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
