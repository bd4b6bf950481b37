// Each chat's permission mode: its own (the toolbar's choice, recorded with the chat), else the
// setting's. The mode before plan mode was entered is what the plan card offers first for the
// implementation.
import type { Event } from '../base/event';
import type { IDisposable } from '../base/lifecycle';
import type { PermissionMode } from '../vocabulary/permissionModes';
import type { AgentSettings } from './agentSettings';
import type { ChatSession } from './session';

export class ChatModes {
	private beforePlan: PermissionMode | undefined;

	constructor(
		private readonly settings: { readonly current: AgentSettings; readonly onDidChange: Event<unknown> },
		private readonly changed: () => void,
	) {}

	/** Says the change when the setting's mode changes: it is the mode of every chat that has not chosen its own. */
	watchSetting(): IDisposable {
		let last = this.settings.current.permissionMode;
		return this.settings.onDidChange(() => {
			const configured = this.settings.current.permissionMode;
			if (configured !== last) {
				last = configured;
				this.changed();
			}
		});
	}

	/** The chat's own mode, else the setting's. */
	of(session: ChatSession): PermissionMode {
		return session.mode ?? this.settings.current.permissionMode;
	}

	/** The person's choice: the chat's mode from now on (recorded with the chat). */
	select(session: ChatSession, mode: PermissionMode): void {
		const current = this.of(session);
		if (mode === 'plan' && current !== 'plan') {
			this.beforePlan = current;
		}
		session.setMode(mode);
		this.changed();
	}

	/** The mode the plan card offers first for the implementation. */
	get forImplementation(): PermissionMode {
		return this.beforePlan ?? 'ask';
	}
}
