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
