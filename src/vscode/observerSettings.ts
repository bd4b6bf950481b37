// The observers' settings (`aside.diagnostics.*`, `aside.editedFiles.*`) as getters over the
// current configuration: the observers call them at every edit and WAIT, so a changed setting
// applies to the next one, in the chat that is open, without New Chat or a reload.
import type { EditDiagnosticsOptions } from '../observe/editDiagnostics';
import type { EditedFilesLimits } from '../observe/editedFiles';
import type { AsideSettings } from './settings';

export function diagnosticsLimitsOf(current: () => AsideSettings): NonNullable<EditDiagnosticsOptions['limits']> {
	return () => {
		const settings = current();
		return { capMs: settings.diagnosticsTimeoutMs, maxPerFile: settings.diagnosticsMaxPerFile, maxTotal: settings.diagnosticsMaxTotal };
	};
}

export function editedFilesLimitsOf(current: () => AsideSettings): () => EditedFilesLimits {
	return () => {
		const settings = current();
		return {
			maxFileBytes: settings.editedMaxFileBytes,
			maxCacheBytes: settings.editedMaxCacheBytes,
			maxDiffLines: settings.editedMaxDiffLines,
			maxDiffBytes: settings.editedMaxDiffBytes,
		};
	};
}
