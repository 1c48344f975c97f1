/**
 * `sizes` of a card's picture in the grids of cards (a collection's resources, the directory, a
 * profile's collections): one column on phones, two from 640 px, three from 1280 px, in a page
 * at most 72rem wide. The browser picks the 320/640/960 px variant that covers it (see Thumbnail).
 */
export const CARD_GRID_IMAGE_SIZES = '(min-width: 1280px) 360px, (min-width: 640px) 50vw, 100vw';
