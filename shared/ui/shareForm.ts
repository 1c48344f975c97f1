import { DEFAULT_LINK_TEXT, type FormatId } from '../domain/constants';
import { createLinkSchema, privateByDefault, type CreateLinkInput, type Link } from '../domain/links';

/** What the Preview & Share form edits. */
export interface ShareFormValues {
  url: string;
  title: string;
  description: string;
  linkText: string;
  thumbnailUrl: string;
  isOriginalContent: boolean;
  format: FormatId | null;
  topicIds: string[];
  supercurationIds: string[];
  /**
   * The author's answer to "Don't add to main feed" (false = checked); null until they touch the
   * box, while the default follows the chosen collections (sharesToMainFeed).
   */
  inMainFeed: boolean | null;
}

export const EMPTY_SHARE_FORM: ShareFormValues = {
  url: '',
  title: '',
  description: '',
  linkText: DEFAULT_LINK_TEXT,
  thumbnailUrl: '',
  isOriginalContent: false,
  format: null,
  topicIds: [],
  supercurationIds: [],
  inMainFeed: null,
};

/**
 * Whether a new link goes to the main feed: as the author set the box, else in unless every
 * collection it goes into is private (private by default where it is private).
 */
export function sharesToMainFeed(values: Pick<ShareFormValues, 'inMainFeed'>, collections: readonly { isPublic: boolean }[]): boolean {
  return values.inMainFeed ?? !privateByDefault(collections);
}

/** The form's values for editing a link already shared ('Update'), in the web app and the extension. */
export function shareFormValuesOf(link: Link): Partial<ShareFormValues> {
  return {
    url: link.url ?? '',
    title: link.title,
    description: link.description,
    linkText: link.linkText,
    thumbnailUrl: link.thumbnailUrl ?? '',
    isOriginalContent: link.isOriginalContent,
    format: link.format,
    topicIds: link.topicIds,
    supercurationIds: link.supercurationIds,
  };
}

export type FieldName = 'url' | 'title' | 'description' | 'linkText' | 'thumbnailUrl';
export type FieldErrors = Partial<Record<FieldName, string>>;

/** The id of each field's input, in the order of the form (the first invalid one gets focus). */
export const FIELD_IDS: Record<FieldName, string> = {
  title: 'share-title',
  description: 'share-description',
  url: 'share-url',
  linkText: 'share-link-text',
  thumbnailUrl: 'share-thumbnail',
};

/**
 * The request body for the form's values; supercurationIds only when the form offers collections,
 * inMainFeed only when given (a new link: sharesToMainFeed).
 */
export function toLinkInput(values: ShareFormValues, withSupercurations: boolean, inMainFeed?: boolean): CreateLinkInput {
  return {
    url: values.url.trim() || null,
    title: values.title,
    description: values.description,
    linkText: values.linkText.trim() || DEFAULT_LINK_TEXT,
    thumbnailUrl: values.thumbnailUrl.trim() || null,
    isOriginalContent: values.isOriginalContent,
    format: values.format,
    topicIds: values.topicIds,
    ...(withSupercurations ? { supercurationIds: values.supercurationIds } : {}),
    ...(inMainFeed === undefined ? {} : { inMainFeed }),
  };
}

/** Required title and description, then the shared schema (URLs must be http(s)). */
export function validateLinkInput(input: CreateLinkInput): { fields: FieldErrors; form: string | null } {
  const fields: FieldErrors = {};
  if (!input.title.trim()) fields.title = 'Title is required';
  if (!input.description.trim()) fields.description = 'Description is required';
  let form: string | null = null;
  const parsed = createLinkSchema.safeParse(input);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path[0];
      if (typeof key === 'string' && key in FIELD_IDS) fields[key as FieldName] ??= issue.message;
      else form ??= issue.message;
    }
  }
  return { fields, form };
}
