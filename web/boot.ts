import './styles.css';

/**
 * The page's entry: its stylesheet at once, the app (web/main.tsx, ~150 kB) once the page has
 * painted. A visitor's page comes rendered by the server and reads before its script has run;
 * fetched at once, that script would share a phone's bandwidth with the stylesheet the first
 * paint waits for. A hidden tab paints nothing, so there the app starts at once.
 */
const start = () => void import('./main');
if (document.visibilityState === 'hidden') start();
else requestAnimationFrame(() => setTimeout(start));
