"""Static file storage of a production site (``DEBUG`` off): WhiteNoise's compressed, hashed
files, with the table page's ES modules' imports rewritten to the hashed names too."""

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticStorage(CompressedManifestStaticFilesStorage):
    """``import ... from "./state.js"`` becomes ``"./state.<hash>.js"`` at ``collectstatic``,
    so a release's modules are cached for good and never mixed with another release's."""

    support_js_module_import_aggregation = True
