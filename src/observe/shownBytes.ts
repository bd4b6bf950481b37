// The bytes the edited-files cache keeps of a file the agent saw or Aside wrote.
import { decodeUtf8 } from '../tools/text';

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/**
 * What to keep of a file the agent was shown (or Aside wrote) as `text`: that text, encoded as the
 * file is (UTF-8, with its byte-order mark if it has one), so a later save of text the agent
 * already saw is no change. A file that is not UTF-8 keeps its bytes on disk: the editor decoded
 * it in its own encoding, which UTF-8 would misreport as a change.
 */
export function shownBytes(disk: Uint8Array, text: string): Uint8Array {
	if (decodeUtf8(disk) === undefined) {
		return disk;
	}
	const bom = UTF8_BOM.every((byte, index) => disk[index] === byte);
	const encoded = Buffer.from(text, 'utf8');
	return bom ? Buffer.concat([Buffer.from(UTF8_BOM), encoded]) : encoded;
}
