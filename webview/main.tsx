import { render } from 'preact';
import { App } from './components/App';
import './styles.css';
import { showOnlyVisibleText } from './showOnlyVisibleText';

showOnlyVisibleText();

const root = document.getElementById('root');
if (root) render(<App />, root);
