// The approval card's answers, on the host: Allow and Deny go to the agent as they are; "Always
// allow" first saves the rules the card showed — the host's own proposal for the call waiting,
// never text from the view — into the person's user settings, says in the chat what was saved,
// and then allows the call, so the next call the rules cover runs without asking.
import { errorMessage } from '../base/errors';
import { saveAllowRules, type UserRulesSetting } from '../agent/permissions/alwaysAllow';
import type { ViewMessage } from '../protocol/messages';
import type { AgentControls } from './controls';

type Notice = (level: 'info' | 'warning' | 'error', text: string) => void;

const SETTING = 'aside.permissions.rules';

function quoted(rules: readonly string[]): string {
	return rules.map((rule) => `\`${rule}\``).join(', ');
}

export class ApprovalAnswers {
	constructor(
		private readonly agent: AgentControls,
		/** Where "Always allow" writes; without it the card's rules cannot be saved (the call is still allowed). */
		private readonly rules: UserRulesSetting | undefined,
		private readonly notice: Notice,
	) {}

	answer(message: Extract<ViewMessage, { type: 'approval' }>): void {
		const { callId, granted, note } = message;
		if (message.always !== true || !granted) {
			this.agent.approve(callId, granted, note);
			return;
		}
		const approval = this.agent.view().approval;
		const proposed = approval?.callId === callId ? approval.alwaysAllow : undefined;
		const { rules } = this;
		if (!proposed || !rules) {
			this.notice('warning', 'No rule was saved: this call was allowed once.');
			this.agent.approve(callId, true, note);
			return;
		}
		void saveAllowRules(rules, proposed).then(
			(saved) => {
				if (!saved.ok) {
					this.notice('warning', `Could not add ${quoted(proposed)} to "${SETTING}": ${saved.reason}. This call was allowed once; edit the setting to add the rule.`);
				} else if (saved.added.length === 0) {
					this.notice('info', `${quoted(proposed)} is already in "allow" of "${SETTING}" in your user settings.`);
				} else {
					this.notice('info', `Saved ${quoted(saved.added)} to "allow" of "${SETTING}" in your user settings: calls it covers now run without asking, in every workspace. Remove it there to be asked again.`);
				}
			},
			(error: unknown) => {
				this.notice('error', `Could not save ${quoted(proposed)} to your user settings: ${errorMessage(error)}. This call was allowed once.`);
			},
		).finally(() => {
			this.agent.approve(callId, true, note);
		});
	}
}
