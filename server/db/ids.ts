import { randomBytes } from 'node:crypto';

/** A new row id: 24 hex characters, URL-safe (ARCHITECTURE "Data rules"). */
export const newId = () => randomBytes(12).toString('hex');

/** The current time as stored in our tables: ISO-8601 UTC text (docs/decisions.md "Platform"). */
export const now = () => new Date().toISOString();
