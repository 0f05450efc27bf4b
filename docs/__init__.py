"""The documentation site: its Sphinx configuration, the notebook runner and the link checker
(scripts/docs.sh), and the pictures of the widget (make_images.py)."""
