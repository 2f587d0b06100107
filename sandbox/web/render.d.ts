/** Types for render.js (plain JavaScript so the browser loads it without a build step). */
import type { Message, MetadataPart } from '../../nodes/shared/types';

export function renderText(text: string | null | undefined, parts?: ReadonlyArray<Partial<MetadataPart>> | null): string;
export function escapeHtml(value: unknown): string;
export function isSafeUrl(url: unknown): boolean;
export function previewText(message: Partial<Message> | null | undefined): string;
export const TYPES: readonly string[];
