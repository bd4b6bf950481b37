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
import type { WindowContribution } from './window';

export const restrictedModeNotices: WindowContribution = {
	name: 'Restricted Mode notices',
	contribute: ({ sessions, configuration, reminderConfig, agent, notices }, store) => {
		store.add(new RestrictedModeNotices({ sessions, trusted: () => workspaceTrust.isTrusted, folders: workspaceRoots, userFiles: userInstructionsShown(configuration, reminderConfig), onDidEndTurn: agent.onDidEndTurn, notify: (text, chat) => { notices.add({ level: 'info', text, action: 'trust.manage', sessionId: chat }); } }));
	},
};

export const profileProblemNotices: WindowContribution = {
	name: 'agent profile notices',
	contribute: ({ agentProfiles, notices }, store) => {
		const profileProblems = (problems: readonly ProfileProblem[]): void => {
			if (problems.length > 0) {
				notices.add({ level: problems.some((problem) => problem.severity === 'error') ? 'error' : 'warning', text: problemsNotice(problems) });
			}
		};
		profileProblems(agentProfiles.problems());
		store.add(agentProfiles.onDidReportProblems(profileProblems));
	},
};

export const skillProblemNotices: WindowContribution = {
	name: 'skill notices',
	contribute: ({ skills, notices }, store) => {
		const skillProblems = (problems: readonly SkillProblem[]): void => {
			if (problems.length > 0) {
				notices.add({ level: problems.some((problem) => problem.severity === 'error') ? 'error' : 'warning', text: skillProblemsNotice(problems) });
			}
		};
		skillProblems(skills.problems());
		store.add(skills.onDidReportProblems(skillProblems));
	},
};
