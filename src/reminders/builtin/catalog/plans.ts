// Modes, plans and reviews: what a mode allows, the plan being written, approved or rejected, and
// the edits the person revised or the agent should verify. Each one's producer lives in its own
// file in ../.
// Each is added to BUILTIN_REMINDER_TYPES in ../catalog.ts, in the order of docs/reminder-keys.md.
import { declareReminder } from '../../declaration';
import { everyTurn, interval, onChange, oneShot } from '../../policy';

export const MODE_CONSTRAINTS = declareReminder({
	type: 'modeConstraints',
	key: 'mode.constraints',
	label: 'mode',
	purpose: 'What the agent may do in the permission mode now in effect: which tools need approval, what is refused, the protected paths; sent at the first delivery of a chat and on each effective change of mode.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: onChange,
	description: 'Tells the model what it may do in the permission mode now in effect, at the start of a chat and whenever the mode changes.',
});

export const MODE_PLAN = declareReminder({
	type: 'modePlan',
	key: 'mode.plan',
	label: 'plan mode',
	purpose: 'The plan-mode workflow: the full template (read-only inspection, the proposal tags and shape) at the first request of a plan episode, then a one-line reference at the start of each later user turn of the episode.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: everyTurn,
	description: 'In plan mode, tells the model how to explore and propose a plan: the full guidance once per plan episode, then a one-line reference.',
});

export const PLAN_REFERENCE = declareReminder({
	type: 'planReference',
	key: 'plan.reference',
	label: 'approved plan',
	purpose: 'The approved plan (bounded) and its file, once on a later turn while it may still be relevant; re-armed by compaction.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: oneShot,
	description: 'Reminds the model of the approved plan and where its file is, once on a later turn.',
});

export const PATCH_USER_REVISED = declareReminder({
	type: 'patchUserRevised',
	key: 'patch.user-revised',
	label: 'your revision',
	purpose: 'After the user changed a proposed edit in the diff editor before accepting it: the applied content is authoritative; do not reapply the original.',
	introducedIn: '0.2.0',
	configurable: true,
	description: 'After you change a proposed edit in the diff editor before allowing it, tells the model that your text is what was applied.',
});

export const EDITS_VERIFY = declareReminder({
	type: 'editsVerify',
	key: 'edits.verify',
	label: 'verify',
	purpose: 'After a turn that changed at least two implementation files: suggests verifying the change (tests, build), and asks for evidence when an approved plan\'s verification is pending.',
	introducedIn: '0.2.0',
	configurable: true,
	policy: interval(10),
	description: 'After a turn that changed two or more implementation files, suggests running the tests or the build.',
});

export const PLAN_REJECTED = declareReminder({
	type: 'planRejected',
	key: 'plan.rejected',
	label: 'plan rejected',
	purpose: 'The user rejected the plan the model proposed, with their note when they wrote one: not to carry it out. Carries the user\'s authority; one-shot, at the next request.',
	introducedIn: '0.6.0',
	configurable: true,
	description: 'After you reject a proposed plan on the plan card, tells the model at the next request that you rejected it, with your note.',
});
