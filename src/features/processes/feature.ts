// Commands in VS Code's terminal, and background processes (docs/tools.md, "Where commands run" and
// "Run in the background"): each chat's processes and shell, what the model is told of them
// (run.background.exit, .output, .stuck, .running), and the tools' access to them. The launcher,
// the output files and the terminals are the window's (src/vscode/terminal/).
import type { AgentFeature } from '../../agent/chatFeature';
import type { ProcessHost } from '../../terminal/processHost';
import type { ChatFeature } from '../feature';
import { ChatProcesses } from './chatProcesses';
import { ProcessesPresenter } from './processesPresenter';
import { PROCESS_RECORD_KIND } from './processRecord';
import { PROCESS_REMINDERS } from './processReminders';

declare module '../../agent/chatFeature' {
	interface FeatureServices {
		/** The window's terminals and process output files; absent where there are none (then Run starts a child process per call). */
		readonly processes?: ProcessHost;
	}
}

/** Each chat's processes, over the window's host (nothing where there is none). */
export const PROCESSES_STATE: AgentFeature<ChatProcesses | object> = {
	id: 'processes',
	open: (chat) => (chat.services.processes ? new ChatProcesses(chat, chat.services.processes) : {}),
};

export const PROCESSES: ChatFeature = {
	id: 'processes',
	records: [PROCESS_RECORD_KIND],
	reminders: PROCESS_REMINDERS,
	agent: PROCESSES_STATE,
	view: (window) => new ProcessesPresenter(window.sessions, (session) => window.features.stateOf(PROCESSES_STATE, session), window.log),
};
