import { JSON_MAX_DEPTH } from './constants';

/** User-facing texts of SPEC §8, verbatim. One place so server, web and extension agree. */
export const MSG = {
  invalidCredentials: 'Invalid email or password',
  signInFailed: 'Failed to sign in. Please try again.',
  emailInUse: 'Email already in use',
  signUpFailed: 'Failed to create account. Please try again.',
  profileUpdateFailed: 'Failed to update profile. Please try again.',
  notAuthenticated: 'Not authenticated',
  profileNotFound: 'User profile not found',
  signOutFailed: 'Failed to sign out. Please try again.',
  authFailed: 'Authentication failed',
  authTimedOut: 'Authentication timed out',
  authInitFailed: 'Failed to initialize auth',
  userNotFound: 'User not found',
  loadProfileFailed: 'Failed to load profile',
  // Not worded by the spec (decisions.md): our own texts.
  nameRequired: 'Name is required',
  emailInvalid: 'Please enter a valid email address',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordBlank: "Password can't be only spaces",
  passwordCommon: 'This password is too common. Choose one that is harder to guess.',
  currentPasswordWrong: 'Current password is incorrect',
  websiteInvalid: 'Website must be an http(s) URL',
  fediverseUsernameInvalid: 'Only lowercase letters, numbers, and underscores are allowed',
  fediverseUsernameTooLong: 'A fediverse username is at most 30 characters',
  fediverseUsernameTaken: 'This username is already taken',
  imagesOnly: 'Only image files can be uploaded',
  imageTooLarge: 'Images must be 5 MB or smaller',
  bodyTooLarge: 'Request body is too large',
  jsonTooDeep: `JSON bodies can be nested at most ${JSON_MAX_DEPTH} levels deep`,
  malformedMultipart: 'The upload could not be read: it is not a complete multipart/form-data body',
  forbiddenProfile: 'You can only edit your own profile',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  nulCharacter: 'Input must not contain NUL characters',
  pageNotFound: 'Page not found',
  profileUpdated: 'Profile updated',
  serverUnavailable: 'Server unavailable',
} as const;

export const LINK_MESSAGES = {
  invalidLinkData: 'Invalid link data',
  mustLogInToShare: 'Must be logged in to share links',
  mustLogInToLike: 'Must be logged in to like links',
  mustLogInToDelete: 'Must be logged in to delete links',
  onlyOwnLinksDeleted: 'You can only delete your own links',
  linkNotFound: 'Link not found',
  loadLinkFailed: 'Failed to load link details',
  fetchLinksFailed: 'Failed to fetch links',
  fetchMoreLinksFailed: 'Failed to fetch more links',
  loadLinksFailed: 'Failed to load links',
  shareLinkFailed: 'Failed to share link',
  previewFailed: 'Failed to fetch link preview',
  noPreview: 'No preview available',
  deleteConfirm: 'Are you sure you want to delete this link? This action cannot be undone.',
  linkCopied: 'Link copied to clipboard',
  copyFailed: 'Failed to copy link',
  // Not worded by the spec (decisions.md):
  onlyHttpUrls: 'Only http(s) links can be shared',
  previewRefused: 'This address cannot be previewed',
  cannotEditLink: 'You can only edit your own links or links in your supercurations',
  onlyAuthorPlacesLink: "Only the link's author can change its main feed setting or add it to other supercurations",
  cannotRepostOwn: 'You cannot repost your own link',
  alreadyReposted: 'You have already reposted this link',
  topicNameRequired: 'Topic name is required',
  topicExists: 'A topic with this name already exists',
  topicNotFound: 'Topic not found',
  invalidColor: 'Colour must be a hex colour like #2563eb',
  mustLogInToUpdate: 'Must be logged in to update links',
  mustLogInToRepost: 'Must be logged in to repost links',
  updateLinkFailed: 'Failed to update link',
  deleteLinkFailed: 'Failed to delete link',
  likeFailed: 'Failed to like link',
  repostFailed: 'Failed to repost link',
  uploadImageFailed: 'Failed to upload image',
  loadTopicsFailed: 'Failed to load topics',
  addTopicFailed: 'Failed to add topic',
  updateTopicFailed: 'Failed to update topic',
  deleteTopicFailed: 'Failed to delete topic',
  invalidCursor: 'Invalid page cursor',
  /** SPEC §8 (Supercurations), also given when a link is shared into a collection the user may not edit. */
  supercurationNotFound: 'Supercuration not found',
  /** Under "Don't add to main feed" when every chosen collection is private. */
  staysPrivate: "This link stays private: only you and the collections' editors can see it.",
} as const;

/** User-facing texts of SPEC §8 (Supercurations, Resources, Collaborators) verbatim, then our own. */
export const SUPERCURATION_MESSAGES = {
  // SPEC §8 Supercurations
  fetchFailed: 'Failed to fetch supercurations',
  mustLogInToCreate: 'Must be logged in to create supercurations',
  mustLogInToUpdate: 'Must be logged in to update supercurations',
  mustLogInToRemove: 'Must be logged in to remove supercurations',
  titleRequired: 'Title is required',
  createFailed: 'Failed to create supercuration',
  notFound: 'Supercuration not found',
  loadFailed: 'Failed to load supercuration',
  isPrivate: 'This supercuration is private',
  /** What the public page shows (and its API answers) for a missing or private collection. */
  publicNotFound: "This supercuration doesn't exist or is private",
  // SPEC §5
  slugInvalid: 'Only lowercase letters, numbers, and hyphens are allowed',
  emailInvalid: MSG.emailInvalid,
  // SPEC §8 Resources
  resourceUpdated: 'Resource updated successfully',
  updateResourceFailed: 'Failed to update resource',
  duplicateLink: 'This link has already been added to this supercuration',
  addResourceFailed: 'Failed to add resource',
  removeResourceFailed: 'Failed to remove resource',
  linkNotFound: LINK_MESSAGES.linkNotFound,
  // SPEC §8 Collaborators ('Added {name} as collaborator': see addedCollaborator())
  addCollaboratorFailed: 'Failed to add collaborator',
  removedCollaborator: 'Removed collaborator',
  removeCollaboratorFailed: 'Failed to remove collaborator',
  // SPEC §2 / §4 screen texts
  subscribeThanks: "Thanks for subscribing! You'll receive updates when new resources are added.",
  noneFound: 'No supercurations found',
  noPublic: 'No public supercurations yet',
  newCategoryName: 'New Category',
  removeResourceTitle: 'Remove Resource',
  // Not worded by the spec (docs/decisions.md):
  slugRequired: 'A URL is required for public supercurations',
  slugTaken: 'This URL is already taken',
  cannotEdit: 'Only the owner and collaborators can edit this supercuration',
  ownerOnlyDelete: 'Only the owner can delete this supercuration',
  ownerOnlyRemoveCollaborator: 'Only the owner can remove other collaborators',
  ownerOnlyTopics: 'Only the owner can change the topics of this supercuration',
  ownerOnlyFediverseFollowers: 'Only the owner can remove fediverse followers',
  fediverseFollowerNotFound: 'Follower not found',
  fetchFediverseFollowersFailed: 'Failed to fetch fediverse followers',
  removeFediverseFollowerFailed: 'Failed to remove the follower',
  updateFailed: 'Failed to update supercuration',
  deleteFailed: 'Failed to delete supercuration',
  addTagCategoryFailed: 'Failed to add tag category',
  updateTagCategoryFailed: 'Failed to update tag category',
  deleteTagCategoryFailed: 'Failed to delete tag category',
  addTagFailed: 'Failed to add tag',
  removeTagFailed: 'Failed to remove tag',
  searchUsersFailed: 'Failed to search users',
  categoryNameRequired: 'Category name is required',
  categoryNotFound: 'Tag category not found',
  tagNameRequired: 'Tag name is required',
  tagExists: 'This tag already exists in this category',
  tagNotFound: 'Tag not found',
  unknownTags: "Tags must be among this supercuration's tags",
  userNotFound: MSG.userNotFound,
  alreadyCollaborator: 'This user is already a collaborator',
  ownerIsNotCollaborator: 'The owner already edits this supercuration',
  collaboratorNotFound: 'Collaborator not found',
  invalidFocus: 'Unknown focus category',
  invalidInput: 'Invalid supercuration data',
  tooManySubscribeAttempts: MSG.tooManyRequests,
  mustLogInToFollow: 'You must be logged in to follow a supercuration',
  editorsCannotFollow: 'You edit this supercuration: its changes are already yours',
  followFailed: 'Failed to follow supercuration',
  unfollowFailed: 'Failed to unfollow supercuration',
} as const;

/** 'Added {name} as collaborator' (SPEC §8). */
export const addedCollaborator = (name: string) => `Added ${name} as collaborator`;

/**
 * Account lifecycle: password reset, e-mail verification and change, sessions,
 * export and deletion. The SPEC words none of these screens: our own texts (decisions.md).
 */
export const ACCOUNT_MESSAGES = {
  resetRequested: 'If an account uses this address, we have sent it a link to choose a new password. The link works once, for 1 hour.',
  resetInvalid: 'This reset link is invalid or has expired. Ask for a new one.',
  resetDone: 'Your password is changed. Sign in with the new one.',
  resetFailed: 'Failed to reset the password. Please try again.',
  passwordChanged: 'Password changed. Your other sessions are signed out.',
  verificationSent: 'Verification e-mail sent. Check your inbox.',
  verificationFailed: 'Failed to send the verification e-mail. Please try again.',
  emailChangeSent: 'Check the new address: the change takes effect when you open the link we sent there.',
  emailChangeFailed: 'Failed to change the e-mail address. Please try again.',
  alreadyVerified: 'Your e-mail address is already verified',
  sameEmail: 'This is already your e-mail address',
  emailVerified: 'Your e-mail address is verified',
  verifyLinkInvalid: 'This verification link is invalid or has expired',
  sessionsFailed: 'Failed to load your sessions',
  signOutSessionFailed: 'Failed to sign out the session. Please try again.',
  exportFailed: 'Failed to export your data. Please try again.',
  deleteEmailMismatch: 'Type your e-mail address exactly as it is to confirm',
  deleteFailed: 'Failed to delete the account. Please try again.',
  passwordRequired: 'Enter your password',
} as const;

/**
 * Personal access tokens: `Authorization: Bearer <token>` on the API acts as the token's user.
 * The SPEC words none of this: our own texts (docs/decisions.md, "Personal access tokens").
 */
export const API_TOKEN_MESSAGES = {
  nameRequired: 'Token name is required',
  nameTooLong: 'Token names can be at most 100 characters',
  expiryInvalid: 'Choose an expiry of 1 to 365 days, or none',
  invalidToken: 'Invalid or expired API token',
  tokenNotFound: 'Token not found',
  tokensNeedSession: 'API tokens cannot create or revoke tokens. Sign in to manage your tokens.',
  accountNeedsSession: 'API tokens cannot change the password or e-mail address, manage sessions or delete the account. Sign in to do this.',
  loadFailed: 'Failed to load your API tokens',
  createFailed: 'Failed to create the token. Please try again.',
  revokeFailed: 'Failed to revoke the token. Please try again.',
  created: 'Token created. Copy it now: you will not see it again.',
  revoked: 'Token revoked',
  copied: 'Token copied to clipboard',
  copyFailed: 'Failed to copy the token',
  revokeConfirm: 'Scripts and apps using this token will stop working at once. This action cannot be undone.',
} as const;

/** Texts of SPEC §8 (Import and sharing) and §5 (batch rule) verbatim, then our own. */
export const IMPORT_MESSAGES = {
  extractFailed: 'Failed to extract text from image',
  noUrlsFound: 'No URLs found in the pasted text',
  processFailed: 'Failed to process pasted text',
  shareLinksFailed: 'Failed to share links',
  shareLinkFailed: LINK_MESSAGES.shareLinkFailed,
  batchRule: 'Please select a supercuration or format, or enable adding to main feed',
  // Not worded by the spec (docs/decisions.md):
  importToggle: 'Import multiple URLs from text or image',
  loadingOcr: 'Loading OCR engine...',
  clipboardDenied: 'Clipboard access was denied. Paste the text with Ctrl+V (Cmd+V on a Mac) instead.',
  clipboardEmpty: 'The clipboard has no text',
  notAnImage: 'Only image files can be read',
  noneSelected: 'Select at least one link to share',
  tooMany: 'You can share at most 100 links at once',
  invalidBatch: 'Invalid batch of links',
} as const;

/** 'Recognising text... n%' while OCR runs. */
export const recognisingText = (percent: number) => `Recognising text... ${Math.round(percent)}%`;

/** 'n of m selected'. */
export const selectedCount = (n: number, m: number) => `${n} of ${m} selected`;

/** 'Share Selected (n)'. */
export const shareSelectedLabel = (n: number) => `Share Selected (${n})`;

/** 'Sharing n links...' while the batch request runs. */
export const sharingLinks = (n: number) => `Sharing ${n} ${n === 1 ? 'link' : 'links'}...`;

/** The success toast. */
export const sharedLinks = (n: number) => `${n} ${n === 1 ? 'link' : 'links'} shared`;

/** The installable web app: its update prompt, and the page a phone's share sheet opens. */
export const PWA_MESSAGES = {
  updateReady: 'A new version of Supercurate is ready.',
  reload: 'Reload',
  shareTitle: 'Share to Supercurate',
  noLink: 'No link in what was shared',
  noLinkHint: 'Share a web page, or a text with its address in it.',
} as const;

/** Personal search (GET /api/search, /search). */
export const SEARCH_MESSAGES = {
  emptyQuery: 'Type something to search for',
  invalidDate: 'Dates must be given as YYYY-MM-DD',
  dateOrder: 'The start date must be on or before the end date',
  queryTooLong: 'Searches are at most 200 characters',
  searchFailed: 'Failed to search',
  mustLogInToSearch: 'You must be logged in to search',
} as const;
