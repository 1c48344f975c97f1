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
  websiteInvalid: 'Website must be an http(s) URL',
  imagesOnly: 'Only image files can be uploaded',
  imageTooLarge: 'Images must be 5 MB or smaller',
  bodyTooLarge: 'Request body is too large',
  jsonTooDeep: `JSON bodies can be nested at most ${JSON_MAX_DEPTH} levels deep`,
  malformedMultipart: 'The upload could not be read: it is not a complete multipart/form-data body',
  forbiddenProfile: 'You can only edit your own profile',
  tooManyRequests: 'Too many attempts. Please wait a minute and try again.',
  pageNotFound: 'Page not found',
  profileUpdated: 'Profile updated',
} as const;
