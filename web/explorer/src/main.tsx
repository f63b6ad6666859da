// The explorer's entry (bundled by scripts/build_explorer.ts, served by src/api/explorer.ts).
import { render } from 'preact';
import { App } from './app.js';
import './styles.css';

render(<App />, document.getElementById('app')!);
