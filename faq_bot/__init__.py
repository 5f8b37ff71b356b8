"""faq_bot: rules lookup and FAQ chatbot for tabletop and card games."""

__version__ = "0.1.0"
