// The roster reminders every session installs (agents inherit the agent-scope ones at spawn).
import type { ReminderDefinition } from '../definition';
import { finalStepNudge } from './agentNudge';
import { contextUsage } from './contextUsage';

export const DEFAULT_REMINDERS: readonly ReminderDefinition[] = [finalStepNudge, contextUsage];
