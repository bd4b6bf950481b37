// What activation wires onto the window's core (window.ts), one feature each: a contribution that
// throws is logged and the next still starts (src/base/contributions.ts). The notices come in the
// order the chat shows what they say.
import { chatView } from './chat';
import { commands, readmeCommand, reviewDecisions } from './commands';
import { profileProblemNotices, restrictedModeNotices, skillProblemNotices } from './notices';
import { reminderFileNotices, reminderLanguage } from './reminders';
import { mcpCommands } from '../mcp/mcpCommands';
import { processCommands } from '../terminal/processCommands';
import type { WindowContribution } from './window';

export const CONTRIBUTIONS: readonly WindowContribution[] = [
	restrictedModeNotices,
	reviewDecisions,
	reminderLanguage,
	profileProblemNotices,
	skillProblemNotices,
	reminderFileNotices,
	chatView,
	commands,
	readmeCommand,
	mcpCommands,
	processCommands,
];
