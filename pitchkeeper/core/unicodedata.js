// The phone's unicodedata, in place of Brython's: Brython's reads Unicode's whole table
// (unicode.txt, 193 KB compressed, searched with a regular expression per character),
// where the rules need only a character's category, its normal form and, for a refusal,
// the name of a hidden character (pitchkeeper/rules/record.py). The tables are the
// server's own (Python's unicodedata), written in by pitchkeeper/core/brython.py.
(function ($B) {
  const _b_ = $B.builtins;
  const VERSION = __VERSION__;
  // Where each run of one category starts (as the gap from the run before) and its
  // category, as an index into CATEGORY_NAMES, one letter a run.
  const GAPS = __GAPS__;
  const RUN_CATEGORIES = __RUN_CATEGORIES__;
  const CATEGORY_NAMES = __CATEGORY_NAMES__;
  // The names of the characters a name may be refused for (hidden by their category, or
  // listed as hidden by the rules): {code point: name}.
  const NAMES = __NAMES__;
  const starts = [];
  let start = 0;
  for (const gap of GAPS) {
    start += gap;
    starts.push(start);
  }

  function codePoint(chr) {
    return _b_.ord(chr);
  }

  function category(chr) {
    const code = codePoint(chr);
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (starts[middle] <= code) {
        low = middle;
      } else {
        high = middle - 1;
      }
    }
    return CATEGORY_NAMES[RUN_CATEGORIES.charCodeAt(low) - 65];
  }

  function name(chr, _default) {
    const found = NAMES[codePoint(chr)];
    if (found !== undefined) {
      return found;
    }
    if (_default !== undefined) {
      return _default;
    }
    $B.RAISE(_b_.ValueError, "no such name");
  }

  function normalize(form, unistr) {
    if (!["NFC", "NFD", "NFKC", "NFKD"].includes(form)) {
      $B.RAISE(_b_.ValueError, "invalid normalization form");
    }
    return $B.String(String(unistr).normalize(form));
  }

  $B.addToImported("unicodedata", { category, name, normalize, unidata_version: VERSION });
})(__BRYTHON__);
