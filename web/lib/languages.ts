let names: Intl.DisplayNames | undefined;

/**
 * A language tag's name in en-US ('en' is English, 'pt-BR' Brazilian Portuguese), or null for a
 * tag Intl does not know. The formatter is built on first use only (a page that shows a language).
 */
export function languageName(tag: string): string | null {
  try {
    names ??= new Intl.DisplayNames(['en-US'], { type: 'language', fallback: 'none' });
    return names.of(tag) ?? null;
  } catch {
    // Not a well-formed tag.
    return null;
  }
}
