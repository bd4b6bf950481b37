// The workspace's own reminders (.aside/reminders/*.md) beyond the core's registry: the editor of
// their files, and what the chat says of a file it could not use.
import type { UnregisteredFile } from '../../workspaceReminders/registry';
import { ReminderLanguage } from '../reminderLanguage';
import type { WindowContribution } from './window';

export const reminderLanguage: WindowContribution = {
	name: 'workspace reminder language',
	contribute: ({ context, workspaceReminders, projections, sessions, configuration, log }, store) => {
		// Its language server starts at the first such file opened.
		store.add(
			new ReminderLanguage({
				extensionUri: context.extensionUri,
				vocabulary: () => workspaceReminders.vocabulary(),
				chats: projections,
				mode: () => sessions.current.mode ?? configuration.current.permissionMode,
				log,
			}),
		);
	},
};

export const reminderFileNotices: WindowContribution = {
	name: 'workspace reminder notices',
	contribute: ({ workspaceReminderFiles, firstReminderProblems, notices }, store) => {
		const reminderFileProblems = (problems: readonly UnregisteredFile[]): void => {
			if (problems.length > 0) {
				notices.add({ level: 'warning', text: `Workspace reminders: ${problems.map((problem) => problem.message).join(' ')}` });
			}
		};
		reminderFileProblems(firstReminderProblems);
		store.add(workspaceReminderFiles.onDidReportProblems(reminderFileProblems));
	},
};
