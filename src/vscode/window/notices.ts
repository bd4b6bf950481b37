// What the host says in the chat on its own beside a turn: Restricted Mode's notice, and the
// profile and skill files it could not use (said in the log by their libraries, and in the chat
// once per change).
import { RestrictedModeNotices } from '../../agent/restrictedMode';
import type { ProfileProblem } from '../../agent/subagents/profile';
import { problemsNotice } from '../../agent/subagents/profileLibrary';
import type { SkillProblem } from '../../skills/skill';
import { skillProblemsNotice } from '../../skills/skillLibrary';
import { userInstructionsShown } from '../instructions';
import { workspaceRoots } from '../toolHost';
import { workspaceTrust } from '../trust';
import type { Event } from '../../base/event';
import type { IDisposable } from '../../base/lifecycle';
import type { AsideWindow, WindowContribution } from './window';

export const restrictedModeNotices: WindowContribution = {
	name: 'Restricted Mode notices',
	contribute: ({ sessions, configuration, reminderConfig, agent, notices }, store) => {
		store.add(new RestrictedModeNotices({ sessions, trusted: () => workspaceTrust.isTrusted, folders: workspaceRoots, userFiles: userInstructionsShown(configuration, reminderConfig), onDidEndTurn: agent.onDidEndTurn, notify: (text, chat) => { notices.add({ level: 'info', text, action: 'trust.manage', sessionId: chat }); } }));
	},
};

/** A library's problems in the chat: those of its first read, then each newly reported batch, as one notice (an error when any is). */
function problemNotices<Problem extends { readonly severity: string }>(
	library: { problems(): readonly Problem[]; readonly onDidReportProblems: Event<readonly Problem[]> },
	words: (problems: readonly Problem[]) => string,
	notices: AsideWindow['notices'],
): IDisposable {
	const report = (problems: readonly Problem[]): void => {
		if (problems.length > 0) {
			notices.add({ level: problems.some((problem) => problem.severity === 'error') ? 'error' : 'warning', text: words(problems) });
		}
	};
	report(library.problems());
	return library.onDidReportProblems(report);
}

export const profileProblemNotices: WindowContribution = {
	name: 'agent profile notices',
	contribute: ({ agentProfiles, notices }, store) => {
		store.add(problemNotices<ProfileProblem>(agentProfiles, problemsNotice, notices));
	},
};

export const skillProblemNotices: WindowContribution = {
	name: 'skill notices',
	contribute: ({ skills, notices }, store) => {
		store.add(problemNotices<SkillProblem>(skills, skillProblemsNotice, notices));
	},
};
