// Images the person attaches in the composer (src/features/images/, webview/images.ts): pasted,
// dropped (a file from the OS or VS Code's explorer) or picked from the `@` list. The webview sends
// the bytes as base64, within a bound; the host sniffs them, checks the model's bound and answers
// with the image (`images.attached`) or why not (`images.refused`). The message that carries them is
// the core `submit`, with `images`; the user row shows them as thumbnails (UserImageView).
import * as z from 'zod';
import { seq } from './sequence';

/** The largest image the composer sends to the host at all: the largest bound a provider keeps (OpenAI's 20 MB). */
export const MAX_ATTACHED_IMAGE_BYTES = 20 * 1024 * 1024;
/** That many bytes as base64 text. */
export const MAX_IMAGE_DATA_CHARS = Math.ceil(MAX_ATTACHED_IMAGE_BYTES / 3) * 4;
/** The most images one message carries. */
export const MAX_IMAGES_PER_MESSAGE = 10;
const MAX_NAME_CHARS = 500;

/** An image as the webview sends it: the name it had (for messages only: never trusted), its bytes as base64. */
export const ImageUpload = z.object({ name: z.string().max(MAX_NAME_CHARS), data: z.string().min(1).max(MAX_IMAGE_DATA_CHARS) });
export type ImageUpload = z.infer<typeof ImageUpload>;

/** An image the host took: what its bytes are (never what its name says). `data` comes back only for one read from a file. */
export const AttachedImageView = z.object({
	name: z.string().max(MAX_NAME_CHARS),
	mimeType: z.string().min(1).max(100),
	bytes: z.number().int().nonnegative(),
	width: z.number().int().positive().optional(),
	height: z.number().int().positive().optional(),
	data: z.string().max(MAX_IMAGE_DATA_CHARS).optional(),
});
export type AttachedImageView = z.infer<typeof AttachedImageView>;

/** An image of a user row: its data URL (absent when its file is gone: `missing` names it). */
export const UserImageView = z.object({
	mimeType: z.string().min(1).max(100),
	bytes: z.number().int().nonnegative(),
	width: z.number().int().positive().optional(),
	height: z.number().int().positive().optional(),
	src: z.string().max(MAX_IMAGE_DATA_CHARS + 200).optional(),
	missing: z.string().max(MAX_NAME_CHARS).optional(),
});
export type UserImageView = z.infer<typeof UserImageView>;

const requestId = z.string().min(1).max(100);

export const IMAGES_VIEW_MESSAGES = [
	/** A pasted or dropped image's bytes: the host answers `images.attached` or `images.refused`. */
	z.object({ type: z.literal('images.attach'), requestId, image: ImageUpload }),
	/** A workspace file (a path from the `@` list) or a dropped `file:` URI: the host reads it, then answers as for `images.attach`. */
	z.object({ type: z.literal('images.attachFile'), requestId, file: z.string().min(1).max(4000) }),
] as const;

export const IMAGES_HOST_MESSAGES = [
	z.object({ type: z.literal('images.attached'), seq, requestId, image: AttachedImageView }),
	/** Why the image was not attached (not an image by its bytes, past the model's bound, unreadable): the composer says it; nothing else is lost. */
	z.object({ type: z.literal('images.refused'), seq, requestId, reason: z.string().max(2000) }),
	/** The message with the composer's images went to the agent: the composer lets them go. */
	z.object({ type: z.literal('images.sent'), seq }),
] as const;

/** A size in bytes in words, as the host says it (`48 KB`). */
export { formatBytes } from '../vocabulary/byteSizes';
