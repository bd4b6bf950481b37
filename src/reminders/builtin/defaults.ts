// The roster reminders every session installs (agents inherit the agent-scope ones at spawn).
import type { AgentProfiles } from '../../agent/subagents/profile';
import type { Clock } from '../../base/clock';
import type { ReminderDefinition } from '../definition';
import { finalStepNudge } from './agentNudge';
import { agentsListing } from './agentsListing';
import { contextCompaction } from './contextCompaction';
import { contextUsage } from './contextUsage';
import { editsVerify, type VerificationInputs } from './editsVerify';
import { modeConstraints } from './modeConstraints';
import { sessionDate } from './sessionDate';
import { NO_SKILLS, type SkillCatalogSource, skillsCatalog } from './skillsCatalog';
import { type EnvironmentReader, sessionEnvironment } from './sessionEnvironment';
import { type InstructionReader, workspaceInstructions } from './workspaceInstructions';

/** The built-ins that need nothing from the editor. */
export const DEFAULT_REMINDERS: readonly ReminderDefinition[] = [finalStepNudge, contextUsage, modeConstraints];

/** Every built-in roster reminder, given what the date, instruction, verification, agent-listing and environment ones read. */
export function builtinReminders(
	clock: Clock,
	instructions: InstructionReader,
	verification: VerificationInputs,
	profiles: Pick<AgentProfiles, 'current'>,
	environment: EnvironmentReader,
	skills: SkillCatalogSource = NO_SKILLS,
): ReminderDefinition[] {
	// The observations that make up the model's context first: date, environment, project instructions.
	return [
		sessionDate(clock),
		sessionEnvironment(environment),
		workspaceInstructions(instructions),
		...DEFAULT_REMINDERS,
		editsVerify(verification),
		agentsListing(profiles),
		contextCompaction(),
		skillsCatalog(skills),
	];
}
