/*
 * Queue Lab embedding kit: one custom element, no build step, no dependencies.
 *
 *   <script src="https://example.org/docs/queue-lab/embed/queue-lab.js" defer></script>
 *   <queue-lab lab="jobs" lang="ko" height="600" step="2"></queue-lab>
 *
 * Attributes
 *   lab     a lab's id: jobs, workers, … (required; the ids are LABS below)
 *   lang    ko | en (default: the page's <html lang> if it is one of them, else en)
 *   height  starting height in CSS pixels (default 600); the lab then sizes the frame
 *   step    tour step to open at, 1–99 (optional; labs with a guided tour run that step's
 *           actions on a fresh database, a step the tour lacks is refused with a note)
 *   challenge  a challenge's id, e.g. jobs-dead (optional; the lab opens with that challenge
 *           started: its starting state, its hints, and its check after each action — an
 *           exercise in a docs page. An id the lab lacks is refused with a note)
 *   theme   light | dark | auto (default auto: the system's); match the host page's theme
 *   src     base URL of the lab site (optional, resolved against the page). Default: the
 *           directory this script was loaded from — or, when that directory is the site's
 *           `embed/` folder (where the site ships this kit), its parent. So the kit works
 *           from a sub-path such as /docs/queue-lab/.
 *
 * The element creates <iframe src="<base>/?lab=<id>&lang=<ko|en>[&theme=light|dark]&embed=1[&step=N][&challenge=ID]"> with a
 * title and loading="lazy". The lab, in embed mode, posts
 *   window.parent.postMessage({ type: 'queue-lab:size', height: <px> }, '*')
 * and the element takes the new height only when the message comes from its own iframe
 * (event.source is that iframe's window) AND from the lab's origin, and the height is a
 * finite number within [MIN_HEIGHT, MAX_HEIGHT]. Everything else is ignored. After a
 * resize the element dispatches a `queue-lab:resize` event with `detail.height`.
 *
 * One PostgreSQL per page: when a lab's PostgreSQL is ready it posts
 * { type: 'queue-lab:started' } to its parent (checked like the size message), and the
 * element asks every other <queue-lab> frame on the page to stop theirs by posting
 * { type: 'queue-lab:stop' } to it (labs of the kit's own origin also tell each other on a
 * BroadcastChannel; this relay reaches frames of any origin). A stopped lab says so and
 * starts again with one click.
 *
 * Content inside <queue-lab>…</queue-lab> (a link to the lab, say) shows only when this
 * script does not run: the element renders into its shadow root and has no slot.
 */
(function () {
  'use strict';

  if (typeof window === 'undefined' || !window.customElements || !window.URL) return;
  if (window.customElements.get('queue-lab')) return;

  // Each lab's id and its name in the header, in both languages: written by the site's build
  // from the registry of labs (scripts/labs.mjs; src/labs/ORDER and each lab's lab.tsv).
  var LABS = /* LABS: written by scripts/labs.mjs */ {};
  var MIN_HEIGHT = 100;
  var MAX_HEIGHT = 20000;
  var DEFAULT_HEIGHT = 600;
  var MAX_STEP = 99;

  // Read now: document.currentScript is only set while this script first runs (and never
  // for modules, hence the search for our own <script> tag).
  var SCRIPT_URL = (function () {
    var current = /** @type {HTMLScriptElement | null} */ (document.currentScript);
    if (current && current.src) return current.src;
    var scripts = /** @type {NodeListOf<HTMLScriptElement>} */ (document.querySelectorAll('script[src]'));
    for (var i = scripts.length - 1; i >= 0; i--) {
      if (/(^|\/)queue-lab\.js([?#]|$)/.test(scripts[i].src)) return scripts[i].src;
    }
    return document.baseURI;
  })();

  function defaultBase() {
    var dir = new URL('./', SCRIPT_URL);
    if (/\/embed\/$/.test(dir.pathname)) dir = new URL('../', dir);
    return dir.href;
  }

  function pickLang(value) {
    var lang = String(value || '').toLowerCase();
    if (lang === 'ko' || lang === 'en') return lang;
    var page = String(document.documentElement.lang || '').toLowerCase();
    return page.indexOf('ko') === 0 ? 'ko' : 'en';
  }

  function pickHeight(value) {
    var height = Number(value);
    if (value === null || value === '' || !isFinite(height)) return DEFAULT_HEIGHT;
    return Math.min(MAX_HEIGHT, Math.max(MIN_HEIGHT, Math.round(height)));
  }

  /** 'light' | 'dark', or null for auto (the system's). */
  function pickTheme(value) {
    var theme = String(value || '').trim().toLowerCase();
    return theme === 'light' || theme === 'dark' ? theme : null;
  }

  function pickStep(value) {
    if (value === null || !/^\s*\d+\s*$/.test(value)) return null;
    var step = parseInt(value, 10);
    return step >= 1 && step <= MAX_STEP ? step : null;
  }

  /** A challenge id as the labs write them (lowercase words and hyphens), else null. */
  function pickChallenge(value) {
    var id = String(value || '').trim();
    return /^[a-z0-9]+(-[a-z0-9]+)*$/.test(id) && id.length <= 64 ? id : null;
  }

  /** The lab's URL for these options; `base` defaults to the kit's base. */
  function labUrl(options) {
    var base = new URL(options.base || defaultBase(), document.baseURI);
    var url = new URL('./', base);
    url.search = '';
    url.hash = '';
    url.searchParams.set('lab', options.lab);
    url.searchParams.set('lang', pickLang(options.lang));
    var theme = pickTheme(options.theme);
    if (theme !== null) url.searchParams.set('theme', theme);
    url.searchParams.set('embed', '1');
    var step = pickStep(options.step == null ? null : String(options.step));
    if (step !== null) url.searchParams.set('step', String(step));
    var challenge = pickChallenge(options.challenge);
    if (challenge !== null) url.searchParams.set('challenge', challenge);
    return url.href;
  }

  function labTitle(lab, lang) {
    return LABS[lab] ? 'Queue Lab — ' + LABS[lab][lang] : 'Queue Lab';
  }

  var STYLE =
    ':host{display:block;max-width:100%}' +
    ':host([hidden]){display:none}' +
    'iframe{display:block;box-sizing:border-box;width:100%;border:0;background:transparent}' +
    '.error{box-sizing:border-box;padding:.75em 1em;border:1px solid #c33;border-radius:6px;' +
    'color:#a11;font:14px/1.4 system-ui,sans-serif}' +
    '@media (prefers-color-scheme: dark){.error{color:#f99;border-color:#f66}}';

  class QueueLabElement extends HTMLElement {
    static get observedAttributes() {
      return ['lab', 'lang', 'step', 'challenge', 'src', 'height', 'theme'];
    }

    constructor() {
      super();
      this._frame = null;
      this._origin = null;
      this._onMessage = this._onMessage.bind(this);
      this.attachShadow({ mode: 'open' }).innerHTML = '<style>' + STYLE + '</style>';
    }

    /** The iframe showing the lab, or null when the lab id is unknown. */
    get iframe() {
      return this._frame;
    }

    connectedCallback() {
      window.addEventListener('message', this._onMessage);
      this._render();
    }

    disconnectedCallback() {
      window.removeEventListener('message', this._onMessage);
    }

    attributeChangedCallback(name, oldValue, newValue) {
      if (!this.isConnected || oldValue === newValue) return;
      if (name === 'height') {
        if (this._frame) this._frame.style.height = pickHeight(newValue) + 'px';
      } else {
        this._render();
      }
    }

    _render() {
      var root = this.shadowRoot;
      var lab = String(this.getAttribute('lab') || '').trim().toLowerCase();
      var old = root.querySelector('iframe, .error');
      if (!Object.prototype.hasOwnProperty.call(LABS, lab)) {
        var error = document.createElement('p');
        error.className = 'error';
        error.setAttribute('role', 'alert');
        error.textContent =
          'Queue Lab: unknown lab "' + lab + '". Use one of: ' + Object.keys(LABS).join(', ') + '.';
        if (old) old.replaceWith(error);
        else root.appendChild(error);
        this._frame = null;
        this._origin = null;
        return;
      }
      var lang = pickLang(this.getAttribute('lang'));
      var src = labUrl({
        base: this.getAttribute('src') || undefined,
        lab: lab,
        lang: lang,
        theme: this.getAttribute('theme'),
        step: this.getAttribute('step'),
        challenge: this.getAttribute('challenge')
      });
      if (this._frame && this._frame.src === src) return;
      var frame = document.createElement('iframe');
      frame.setAttribute('title', labTitle(lab, lang));
      frame.setAttribute('loading', 'lazy');
      frame.setAttribute('allow', 'clipboard-write');
      frame.setAttribute('lang', lang);
      frame.style.height = pickHeight(this.getAttribute('height')) + 'px';
      frame.src = src;
      this._origin = new URL(src).origin;
      if (old) old.replaceWith(frame);
      else root.appendChild(frame);
      this._frame = frame;
    }

    _onMessage(event) {
      var frame = this._frame;
      if (!frame || event.source === null || event.source !== frame.contentWindow) return;
      if (event.origin !== this._origin) return;
      var data = event.data;
      if (data !== null && typeof data === 'object' && data.type === 'queue-lab:started') {
        this._stopOthers();
        return;
      }
      if (data === null || typeof data !== 'object' || data.type !== 'queue-lab:size') return;
      var height = data.height;
      if (typeof height !== 'number' || !isFinite(height)) return;
      if (height < MIN_HEIGHT || height > MAX_HEIGHT) return;
      height = Math.ceil(height);
      frame.style.height = height + 'px';
      this.dispatchEvent(new CustomEvent('queue-lab:resize', { detail: { height: height } }));
    }

    /** Asks the frame of every other <queue-lab> on the page to stop its PostgreSQL. */
    _stopOthers() {
      var all = document.querySelectorAll('queue-lab');
      for (var i = 0; i < all.length; i++) {
        var other = /** @type {QueueLabElement} */ (all[i]);
        if (other === this || !other._frame || !other._frame.contentWindow) continue;
        other._frame.contentWindow.postMessage({ type: 'queue-lab:stop' }, other._origin || '*');
      }
    }
  }

  window.customElements.define('queue-lab', QueueLabElement);

  // For the snippet page (embed/index.html) and for tests; not needed to embed a lab.
  window.QueueLab = Object.freeze({
    labs: LABS,
    scriptUrl: SCRIPT_URL,
    base: defaultBase(),
    labUrl: labUrl,
    labTitle: function (lab, lang) {
      return labTitle(lab, pickLang(lang));
    },
    MIN_HEIGHT: MIN_HEIGHT,
    MAX_HEIGHT: MAX_HEIGHT,
    DEFAULT_HEIGHT: DEFAULT_HEIGHT
  });
})();
